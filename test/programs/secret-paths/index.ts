// Test program for test/secret-paths.test.ts: every resource kind and function with a secret output of
// the independent table, as test/support/secretCases.ts lists them (config `resources` and `invokes`,
// plain JSON: the secret inputs are given as plain values, so marking them is the provider's work).
// Each function's result is a stack output, through its Output variant (the plain variants answer
// plain values, as Pulumi's plain invokes do).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const resources = config.requireObject<Array<{ name: string; kind: string; inputs: unknown }>>("resources");
const invokes = config.requireObject<Array<{ name: string; fn: string; args: unknown }>>("invokes");
const sdk = frontdoor as unknown as Record<string, any>;

const outputs: Record<string, unknown> = {};
for (const r of resources) new sdk[r.kind](r.name, r.inputs);
for (const i of invokes) outputs[i.name] = sdk[`${i.fn}Output`](i.args);

export = outputs;
