// The HTTP client loads two of undici's modules, not its index (provider/http/undiciParts.ts): they
// must be the very Pool and request that undici exports, and a host that sends requests must not load
// the rest (fetch, mocks, caches). The expected values are undici's own exports.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { poolClass, requestApi } from "../provider/http/undiciParts";

const root = path.resolve(__dirname, "..");

describe("undici parts of the HTTP client", () => {
  it("are the Pool and request that undici's index exports", () => {
    const undici = require("undici") as typeof import("undici");
    assert.equal(poolClass(), undici.Pool);
    // undici's index assigns its APIs onto Dispatcher.prototype: a Pool's request is the same function.
    assert.equal(requestApi(), undici.Pool.prototype.request);
  });

  it("a client that sends a request loads undici's Pool and request, not undici's index", function () {
    this.timeout(30_000);
    // In a fresh process: a server on 127.0.0.1 (ephemeral port), one GET through the client, then
    // the undici files in require.cache and the answer.
    const script = `
      const http = require("node:http");
      const { HttpClient, noAuth } = require("./provider/http/client");
      const server = http.createServer((req, res) => res.end(JSON.stringify({ path: req.url })));
      server.listen(0, "127.0.0.1", async () => {
        const client = new HttpClient({ baseUrl: "http://127.0.0.1:" + server.address().port + "/api" }, noAuth, () => ({}));
        const res = await client.request({ method: "GET", path: "/ping" });
        await client.close();
        server.close();
        const files = Object.keys(require.cache).filter((f) => f.includes("/node_modules/undici/"));
        console.log(JSON.stringify({ status: res.status, body: res.body, files }));
      });`;
    const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    const { status, body, files } = JSON.parse(out.trim().split("\n").pop() as string) as {
      status: number;
      body: unknown;
      files: string[];
    };
    assert.equal(status, 200);
    assert.deepEqual(body, { path: "/api/ping" });
    const relative = files.map((f) =>
      f.slice(f.indexOf("/node_modules/undici/") + "/node_modules/undici/".length),
    );
    assert.ok(relative.includes("lib/dispatcher/pool.js"), relative.join(", "));
    assert.ok(relative.includes("lib/api/api-request.js"), relative.join(", "));
    for (const unwanted of ["index.js", "lib/web/fetch/index.js", "lib/mock/mock-agent.js"])
      assert.ok(!relative.includes(unwanted), `${unwanted} loaded: ${relative.join(", ")}`);
  });
});
