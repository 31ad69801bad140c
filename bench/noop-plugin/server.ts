// `pulumi-resource-noop`: a do-nothing provider plugin of the same kind as ours (Node.js, the same
// @grpc/grpc-js server and Pulumi's generated protocol code), the plugin floor of the benchmark
// (bench/plugin.ts, the floor): package `noop`, one resource `noop:index:Thing` with input `name` and
// the output properties of frontdoor:index:Service. Every call answers at once. Create reports the
// inputs plus the provider config `outputs` (JSON: a service's outputs as our provider stored them),
// so the engine carries a state of the same shape as ours. Compiled by bench/plugin.ts
// (buildNoopPlugin) to bench/noop-plugin/bin/server.js, which the launcher runs.
import * as grpc from "@grpc/grpc-js";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";

export const NOOP_VERSION = "0.0.1";

const strings = { type: "array", items: { type: "string" } };
const OUTPUTS = {
  name: { type: "string" },
  configs: strings,
  roleAttributes: strings,
  encryptionRequired: { type: "boolean" },
  terminatorStrategy: { type: "string" },
  maxIdleTimeMillis: { type: "integer" },
  tags: { type: "object", additionalProperties: { type: "string" } },
};
export const NOOP_SCHEMA = {
  name: "noop",
  version: NOOP_VERSION,
  config: { variables: { outputs: { type: "string" } } },
  provider: { inputProperties: { outputs: { type: "string" } } },
  resources: {
    "noop:index:Thing": {
      inputProperties: { name: { type: "string" } },
      requiredInputs: ["name"],
      properties: OUTPUTS,
      required: ["name"],
    },
  },
};

type Props = Record<string, unknown>;
/** What Create adds to the inputs: the provider config `outputs`, set at Configure. */
let outputs: Props = {};

const props = (s: structproto.Struct | undefined): Props => (s?.toJavaScript() ?? {}) as Props;
const struct = (value: Props) => structproto.Struct.fromJavaScript(value as never);

/** A unary handler answering `work(request)` at once. */
function unary<Req, Res>(work: (req: Req) => Res) {
  return (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) =>
    callback(null, work(call.request));
}
function unimplemented(_call: unknown, callback: (err: Partial<grpc.StatusObject>) => void) {
  callback({ code: grpc.status.UNIMPLEMENTED, details: "not implemented by the noop provider" });
}
/** Check and CheckConfig: the inputs as given, no failures. */
const check = unary((req: provproto.CheckRequest) => new provproto.CheckResponse().setInputs(req.getNews()));
/** Diff and DiffConfig: no changes. */
const noChanges = unary(() =>
  new provproto.DiffResponse().setChanges(provproto.DiffResponse.DiffChanges.DIFF_NONE),
);

export const service: provrpc.IResourceProviderServer = {
  getPluginInfo: unary(() => new plugproto.PluginInfo().setVersion(NOOP_VERSION)),
  getSchema: unary(() => new provproto.GetSchemaResponse().setSchema(JSON.stringify(NOOP_SCHEMA))),
  checkConfig: check,
  diffConfig: noChanges,
  configure: unary((req: provproto.ConfigureRequest) => {
    const given = props(req.getArgs()).outputs ?? req.getVariablesMap().get("noop:config:outputs");
    // A string as the CLI passes stack config; an object if the engine decoded it already.
    outputs = typeof given === "string" ? (JSON.parse(given || "{}") as Props) : ((given ?? {}) as Props);
    return new provproto.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true);
  }),
  check,
  diff: noChanges,
  create: unary((req: provproto.CreateRequest) => {
    const inputs = props(req.getProperties());
    return new provproto.CreateResponse()
      .setId(req.getPreview() ? "" : String(inputs.name))
      .setProperties(struct({ ...outputs, ...inputs }));
  }),
  read: unary((req: provproto.ReadRequest) =>
    new provproto.ReadResponse()
      .setId(req.getId())
      .setProperties(req.getProperties())
      .setInputs(req.getInputs()),
  ),
  update: unary((req: provproto.UpdateRequest) =>
    new provproto.UpdateResponse().setProperties(req.getNews()),
  ),
  delete: unary(() => new emptyproto.Empty()),
  cancel: unary(() => new emptyproto.Empty()),
  // As our server answers them (provider/plugin/server.ts): the engine falls back when unimplemented.
  handshake: unimplemented,
  getMapping: unimplemented,
  getMappings: unimplemented,
  invoke: unimplemented,
  parameterize: unimplemented,
  call: unimplemented,
  construct: unimplemented,
  attach: unimplemented,
  list: (call: grpc.ServerWritableStream<provproto.ListRequest, provproto.ListResponse>) =>
    call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented" }),
};

/** Run as the plugin process: serve on a loopback port and print it (the engine reads the first line). */
if (require.main === module) {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1 << 30 });
  server.addService(provrpc.ResourceProviderService, service);
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) {
      process.stderr.write(`pulumi-resource-noop: ${err.message}\n`);
      process.exit(1);
    }
    process.stdout.write(`${port}\n`);
  });
}
