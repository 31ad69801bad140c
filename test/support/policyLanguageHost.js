// A Node.js language host for the policy-pack suite (test/policy-pack.test.ts): the peers' host plus
// the RPC that runs policy packs. The Pulumi CLI (v3.276, as v3.259) runs a Node.js policy pack through the language
// host's RunPlugin (kind "analyzer") whenever a `pulumi-language-nodejs` is found; the host the peers
// build (v3.68, the last one the module proxy serves, scripts/peers/install.js) answers RunPlugin with
// "not supported". The host released with the CLI runs the pack's own
// @pulumi/pulumi/cmd/run-policy-pack with node in the pack's folder, as the legacy
// `pulumi-analyzer-policy` script does: so does this one. Every other RPC goes to the peers' host,
// started as a child with the same arguments. Only that suite puts it first on PATH.
const { spawn } = require("node:child_process");
const path = require("node:path");
const grpc = require("@grpc/grpc-js");
const languageGrpc = require("@pulumi/pulumi/proto/language_grpc_pb");
const languageProto = require("@pulumi/pulumi/proto/language_pb");

const REAL_HOST = path.resolve(__dirname, "..", "..", ".peers", "bin", "pulumi-language-nodejs");
const service = languageGrpc.LanguageRuntimeService;

/** The peers' host, with our arguments; resolves with its gRPC port (the first line it prints). */
function startRealHost() {
  const child = spawn(REAL_HOST, process.argv.slice(2), { stdio: ["ignore", "pipe", "inherit"] });
  for (const signal of ["SIGTERM", "SIGINT"])
    process.on(signal, () => {
      child.kill(signal);
      process.exit(0);
    });
  child.on("exit", (code) => process.exit(code ?? 1));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(Number(out.trim().split("\n")[0]));
    });
    child.on("error", reject);
  });
}

/** RunPlugin for a policy pack: node runs the pack's run-policy-pack in its folder, output streamed. */
function runPolicyPack(call) {
  const request = call.request;
  const dir = request.getInfo()?.getProgramDirectory() || request.getPwd();
  const respond = (set) => {
    const response = new languageProto.RunPluginResponse();
    set(response);
    call.write(response);
  };
  let runner;
  try {
    runner = require.resolve("@pulumi/pulumi/cmd/run-policy-pack", { paths: [dir] });
  } catch {
    // The CLI recognises this message and asks for the pack's dependencies to be installed.
    respond((r) => r.setStderr(Buffer.from("Cannot find module '@pulumi/pulumi/cmd/run-policy-pack'\n")));
    respond((r) => r.setExitcode(1));
    call.end();
    return;
  }
  const env = Object.fromEntries(
    request
      .getEnvList()
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
  const child = spawn(process.execPath, [runner, ...request.getArgsList(), "."], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk) => respond((r) => r.setStdout(chunk)));
  child.stderr.on("data", (chunk) => respond((r) => r.setStderr(chunk)));
  child.on("close", (code) => {
    respond((r) => r.setExitcode(code ?? 1));
    call.end();
  });
  call.on("cancelled", () => child.kill("SIGTERM"));
}

async function main() {
  const port = await startRealHost();
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const handlers = {};
  for (const [name, def] of Object.entries(service)) {
    if (def.responseStream) {
      handlers[name] =
        def.path === "/pulumirpc.LanguageRuntime/RunPlugin"
          ? runPolicyPack
          : (call) => {
              const stream = client.makeServerStreamRequest(
                def.path,
                def.requestSerialize,
                def.responseDeserialize,
                call.request,
                call.metadata,
              );
              stream.on("data", (message) => call.write(message));
              stream.on("end", () => call.end());
              stream.on("error", (error) => call.emit("error", error));
            };
    } else {
      handlers[name] = (call, callback) =>
        client.makeUnaryRequest(
          def.path,
          def.requestSerialize,
          def.responseDeserialize,
          call.request,
          call.metadata,
          callback,
        );
    }
  }
  const server = new grpc.Server();
  server.addService(service, handlers);
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, boundPort) => {
    if (error) throw error;
    process.stdout.write(`${boundPort}\n`);
  });
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
