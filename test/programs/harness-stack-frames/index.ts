// Fixture: exports the stack-trace limit the program runs with (the harness keeps no frames unless
// --debug or PULUMI_DEBUG_PROMISE_LEAKS), and with config `fail` throws, to show errors keep their message.
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const fail = config.get("fail");
if (fail) throw new Error(`refused by the program: ${fail}`);

export const stackTraceLimit = Error.stackTraceLimit;
export const frames = (new Error("probe").stack ?? "").split("\n").length - 1;
