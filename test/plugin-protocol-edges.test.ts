// The plugin's answers at the edges of Pulumi's provider protocol, each asserted in a test body (not in a
// hook) so that mutation testing's per-test coverage sees it (test/mutation/groups.json, group plugin):
// Configure declines resource references, List (a server-streaming call) ends UNIMPLEMENTED, and a
// request above gRPC's default 4 MiB limit is received. No request reaches an API: no mock needed.
import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { servePlugin, struct } from "./support/plugin";

describe("plugin protocol edges (served in process)", function () {
  this.timeout(60_000);

  it("Configure declines resource references (acceptResources false), accepting secrets", async () => {
    // The plugin's wire conversion (provider/plugin/wire.ts) knows secrets and unknowns, not resource
    // references: accepting them would hand the engine's reference objects to the resource code.
    const plugin = await servePlugin();
    try {
      const req = new provproto.ConfigureRequest();
      req.setArgs(struct({}));
      req.setAcceptsecrets(true);
      req.setAcceptresources(true);
      const res = await plugin.call<provproto.ConfigureResponse>("configure", req);
      assert.equal(res.getAcceptresources(), false);
      assert.equal(res.getAcceptsecrets(), true);
    } finally {
      await plugin.stop();
    }
  });

  it("List, a server-streaming call, ends with UNIMPLEMENTED naming it", async () => {
    const plugin = await servePlugin();
    try {
      const stream = (plugin.client as any).list(
        new provproto.ListRequest(),
      ) as grpc.ClientReadableStream<unknown>;
      const err = await new Promise<grpc.ServiceError>((resolve, reject) => {
        stream.on("data", () => reject(new Error("List answered an item")));
        stream.on("error", resolve);
        stream.on("end", () => reject(new Error("List ended without an error")));
      });
      assert.equal(err.code, grpc.status.UNIMPLEMENTED);
      assert.equal(err.details, "List is not implemented");
    } finally {
      await plugin.stop();
    }
  });

  it("receives a request larger than gRPC's default 4 MiB (the engine sends whole states, up to 400 MB)", async () => {
    // grpc-js refuses a received message above 4 MiB unless the server raises its limit; Pulumi's engine
    // sends up to 400 MB (sdk/go/common/util/rpcutil/serve.go: maxRPCMessageSize). A new server in this test: its
    // options are read when it is made.
    const plugin = await servePlugin();
    try {
      const big = "x".repeat(5 * 1024 * 1024);
      const req = new provproto.DiffRequest();
      req.setUrn("urn:pulumi:dev::proj::pulumi:providers:frontdoor::big");
      req.setOlds(struct({ apiUrl: "https://a.example.com", note: big }));
      req.setNews(struct({ apiUrl: "https://b.example.com", note: big }));
      const res = await plugin.call<provproto.DiffResponse>("diffConfig", req);
      assert.deepEqual(res.getDiffsList(), ["apiUrl"]);
    } finally {
      await plugin.stop();
    }
  });
});
