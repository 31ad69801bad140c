// The plugin's log: the engine's Log service at the address the engine starts the plugin with. The
// CLI hides what a provider plugin writes to stderr unless it is debugging, so warnings and progress
// lines go to the engine instead, under the resource whose call is under way (its URN, kept for each
// gRPC call by `withUrn`), and the CLI shows them as it shows a program's messages. A line the engine
// does not take (no engine at that address, e.g. a test that drives the plugin alone) goes to stderr.
import { AsyncLocalStorage } from "node:async_hooks";
import * as grpc from "@grpc/grpc-js";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import type { LogSink } from "../log";

const currentUrn = new AsyncLocalStorage<string>();

/** Runs `work` as a call about `urn` (empty: none): its log lines are shown under that resource. */
export function withUrn<T>(urn: string, work: () => T): T {
  return currentUrn.run(urn, work);
}

/** A sink that sends each line to the engine at `address`, falling back to stderr. */
export function engineLogSink(address: string): LogSink {
  const engine = new engrpc.EngineClient(address, grpc.credentials.createInsecure());
  return (severity, message, line) => {
    const req = new engproto.LogRequest();
    req.setSeverity(severity === "warning" ? engproto.LogSeverity.WARNING : engproto.LogSeverity.INFO);
    req.setMessage(message);
    req.setUrn(currentUrn.getStore() ?? "");
    engine.log(req, (err) => {
      if (err) process.stderr.write(`${line}\n`);
    });
  };
}
