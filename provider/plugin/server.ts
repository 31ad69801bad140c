// The gRPC side of the plugin: Pulumi's ResourceProvider service, each method decoding its request,
// calling the engine (engine.ts) or the plugin's provider methods (provider.ts), and encoding the
// answer with its secrets marked (wire.ts). No resource logic here.
import * as grpc from "@grpc/grpc-js";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import * as anyproto from "google-protobuf/google/protobuf/any_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as engine from "../engine";
import { PartialFailureError } from "../http/errors";
import { redact } from "../redact";
import type { CheckFailure, Props } from "../resource";
import { resourceDefinition } from "../resources";
import { withUrn } from "./engineLog";
import { packageFile } from "./packageFiles";
import * as provider from "./provider";
import { type Path, unwrapSecrets, wrapSecrets } from "./wire";

export function pluginVersion(): string {
  return JSON.parse(packageFile("package.json")).version;
}

type Struct = structproto.Struct | undefined;

/** A Struct as plain data and the paths of its secrets. */
function decode(struct: Struct): { value: Props; secrets: Path[] } {
  const { value, secrets } = unwrapSecrets(struct?.toJavaScript() ?? {});
  return { value: value as Props, secrets };
}

function encode(value: Props, secrets: Path[] = []): structproto.Struct {
  return structproto.Struct.fromJavaScript(wrapSecrets(value, secrets) as any);
}

function failureList(failures: CheckFailure[]): provproto.CheckFailure[] {
  return failures.map((f) => {
    const failure = new provproto.CheckFailure();
    failure.setProperty(f.property);
    failure.setReason(f.reason);
    return failure;
  });
}

/**
 * An error as gRPC status: the message (redacted) and, for an object that exists but did not finish
 * (PartialFailureError), its id and properties, so the engine keeps it in the state: no orphan.
 */
function statusOf(err: unknown, secrets: Path[] = []): Partial<grpc.StatusObject> {
  const message = redact(String((err as Error)?.message ?? err));
  const metadata = new grpc.Metadata();
  if (err instanceof PartialFailureError) {
    const detail = new provproto.ErrorResourceInitFailed();
    detail.setId(err.id);
    detail.setProperties(encode(err.properties, secrets));
    detail.setReasonsList(err.reasons);
    const any = new anyproto.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

/**
 * A unary handler: the answer of `work`, or its error as a status (secrets of the request for partial
 * failures). What the provider logs meanwhile is about the request's resource (engineLog.ts).
 */
function unary<Req, Res>(work: (req: Req) => Promise<Res>, secretsOf?: (req: Req) => Path[]) {
  return (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => {
    const urn = (call.request as { getUrn?: () => string }).getUrn?.() ?? "";
    withUrn(urn, () => work(call.request)).then(
      (res) => callback(null, res),
      (err) => callback(statusOf(err, secretsOf?.(call.request) ?? []), null),
    );
  };
}

function unimplemented(name: string) {
  return (_call: unknown, callback: (err: Partial<grpc.StatusObject>) => void) =>
    callback({
      code: grpc.status.UNIMPLEMENTED,
      details: `${name} is not implemented by the frontdoor provider`,
    });
}

/** The secret paths of a resource's outputs, given the secret paths of what the program passed. */
function outputSecrets(urn: string, given: Path[]): Path[] {
  return provider.outputSecretPaths(resourceDefinition(provider.kindOf(urn)), given);
}

const DIFF_KIND = provproto.PropertyDiff.Kind;

function diffResponse(
  changed: string[],
  replaces: string[],
  deleteBeforeReplace: boolean,
  olds: Props,
  news: Props,
) {
  const res = new provproto.DiffResponse();
  res.setChanges(
    changed.length
      ? provproto.DiffResponse.DiffChanges.DIFF_SOME
      : provproto.DiffResponse.DiffChanges.DIFF_NONE,
  );
  res.setReplacesList(replaces);
  res.setDeletebeforereplace(deleteBeforeReplace);
  res.setDiffsList(changed);
  const detailed = res.getDetaileddiffMap();
  for (const key of changed) {
    const replace = replaces.includes(key);
    const kind =
      olds[key] === undefined || olds[key] === null
        ? replace
          ? DIFF_KIND.ADD_REPLACE
          : DIFF_KIND.ADD
        : news[key] === undefined || news[key] === null
          ? replace
            ? DIFF_KIND.DELETE_REPLACE
            : DIFF_KIND.DELETE
          : replace
            ? DIFF_KIND.UPDATE_REPLACE
            : DIFF_KIND.UPDATE;
    const diff = new provproto.PropertyDiff();
    diff.setKind(kind);
    diff.setInputdiff(true);
    detailed.set(key, diff);
  }
  res.setHasdetaileddiff(true);
  return res;
}

export const service: provrpc.IResourceProviderServer = {
  getPluginInfo: unary(async () => {
    const info = new plugproto.PluginInfo();
    info.setVersion(pluginVersion());
    return info;
  }),

  getSchema: unary(async () => {
    const res = new provproto.GetSchemaResponse();
    res.setSchema(packageFile("schema.json"));
    return res;
  }),

  checkConfig: unary(async (req: provproto.CheckRequest) => {
    const res = new provproto.CheckResponse();
    const news = decode(req.getNews());
    const failures = provider.checkConfig(news.value);
    // The inputs as given, secrets marked: those given secret and every secret setting.
    res.setInputs(encode(news.value, [...news.secrets, ...provider.SECRET_SETTINGS.map((key) => [key])]));
    res.setFailuresList(failureList(failures));
    return res;
  }),

  diffConfig: unary(async (req: provproto.DiffRequest) => {
    const olds = decode(req.getOlds()).value;
    const news = decode(req.getNews()).value;
    const changed = provider.diffConfig(olds, news);
    return diffResponse(changed, [], false, olds, news);
  }),

  configure: unary(async (req: provproto.ConfigureRequest) => {
    const variables = new Map(req.getVariablesMap().toArray());
    await provider.configure(decode(req.getArgs()).value, variables);
    const res = new provproto.ConfigureResponse();
    res.setAcceptsecrets(true);
    res.setSupportspreview(true);
    res.setAcceptresources(false);
    return res;
  }),

  check: unary(async (req: provproto.CheckRequest) => {
    const kind = provider.kindOf(req.getUrn());
    const news = decode(req.getNews());
    const result = await engine.checkOnline(kind, decode(req.getOlds()).value, news.value);
    const res = new provproto.CheckResponse();
    const secrets = [...news.secrets, ...provider.inputSecretPaths(resourceDefinition(kind))];
    res.setInputs(encode(result.inputs, secrets));
    res.setFailuresList(failureList(result.failures));
    return res;
  }),

  diff: unary(async (req: provproto.DiffRequest) => {
    const kind = provider.kindOf(req.getUrn());
    const olds = decode(req.getOlds()).value;
    const news = decode(req.getNews()).value;
    const outcome = await engine.diff(kind, req.getId(), olds, news);
    return diffResponse(outcome.changed, outcome.replaces, outcome.deleteBeforeReplace, olds, news);
  }),

  create: unary(
    async (req: provproto.CreateRequest) => {
      const kind = provider.kindOf(req.getUrn());
      const inputs = decode(req.getProperties());
      const res = new provproto.CreateResponse();
      const made = req.getPreview()
        ? { id: "", outs: provider.previewCreate(kind, inputs.value) }
        : await engine.create(kind, inputs.value);
      res.setId(made.id);
      res.setProperties(encode(made.outs, outputSecrets(req.getUrn(), inputs.secrets)));
      return res;
    },
    (req) => outputSecrets(req.getUrn(), decode(req.getProperties()).secrets),
  ),

  read: unary(async (req: provproto.ReadRequest) => {
    const kind = provider.kindOf(req.getUrn());
    const props = decode(req.getProperties());
    const inputs = decode(req.getInputs());
    const found = await engine.read(kind, req.getId(), props.value);
    const res = new provproto.ReadResponse();
    if (!found.id) return res; // gone: no id
    const def = resourceDefinition(kind);
    res.setId(found.id);
    res.setProperties(encode(found.props, outputSecrets(req.getUrn(), props.secrets)));
    // A refresh keeps the program's inputs; an import (only an id) takes them from what was read.
    const imported = Object.keys(inputs.value).length === 0;
    res.setInputs(
      imported
        ? encode(provider.importedInputs(kind, found.props), provider.inputSecretPaths(def))
        : encode(inputs.value, [...inputs.secrets, ...provider.inputSecretPaths(def)]),
    );
    return res;
  }),

  update: unary(
    async (req: provproto.UpdateRequest) => {
      const kind = provider.kindOf(req.getUrn());
      const olds = decode(req.getOlds());
      const news = decode(req.getNews());
      const outs = req.getPreview()
        ? provider.previewUpdate(kind, olds.value, news.value)
        : (await engine.update(kind, req.getId(), olds.value, news.value)).outs;
      const res = new provproto.UpdateResponse();
      res.setProperties(encode(outs, outputSecrets(req.getUrn(), news.secrets)));
      return res;
    },
    (req) => outputSecrets(req.getUrn(), decode(req.getNews()).secrets),
  ),

  delete: unary(async (req: provproto.DeleteRequest) => {
    await engine.remove(provider.kindOf(req.getUrn()), req.getId(), decode(req.getProperties()).value);
    return new emptyproto.Empty();
  }),

  invoke: unary(async (req: provproto.InvokeRequest) => {
    const args = decode(req.getArgs());
    const { result, secrets } = await provider.invoke(req.getTok(), args.value);
    // Secret arguments make the whole answer secret (as Pulumi's own providers do).
    const whole = args.secrets.length ? Object.keys(result).map((key) => [key]) : [];
    const res = new provproto.InvokeResponse();
    res.setReturn(encode(result, [...secrets, ...whole]));
    return res;
  }),

  cancel: unary(async () => new emptyproto.Empty()),

  handshake: unimplemented("Handshake"),
  parameterize: unimplemented("Parameterize"),
  call: unimplemented("Call"),
  construct: unimplemented("Construct"),
  list: (call: grpc.ServerWritableStream<provproto.ListRequest, provproto.ListResponse>) =>
    call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented" }),
  attach: unimplemented("Attach"),
  getMapping: unimplemented("GetMapping"),
  getMappings: unimplemented("GetMappings"),
};

/** Serves the provider on a loopback port; resolves to the port. */
export async function serve(): Promise<{ port: number; server: grpc.Server }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1 << 30 });
  server.addService(provrpc.ResourceProviderService, service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { port, server };
}
