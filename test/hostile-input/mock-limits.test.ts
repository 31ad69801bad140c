// The mock server holds a bounded amount whatever it is sent (mock/server.ts, docs/guides/mock-and-harness.md):
// the Host check comes before the body is read, a body over `maxBodyBytes` (default 1 MiB) is answered
// 413 in the error shape of its API without being read to its end, the request log keeps the last
// `logLimit` requests (default 1000) and each body's first `logBodyChars` characters (default 16 KiB).
// Bodies are streamed from one 1 MiB buffer with backpressure, so the client itself holds 1 MiB.
import assert from "node:assert/strict";
import http from "node:http";
import { MOCK_LIMITS, type MockServer, startMockServer } from "../../mock/server";

const MiB = 1024 * 1024;

interface Posted {
  status: number;
  body: string;
  /** Bytes the client had written when the answer came. */
  writtenBeforeAnswer: number;
}

/** POSTs `mib` MiB (chunked, or with its Content-Length) and resolves with the first answer. */
function postLarge(
  url: string,
  path: string,
  mib: number,
  headers: Record<string, string> = {},
  withLength = false,
): Promise<Posted> {
  const chunk = Buffer.alloc(MiB, "a");
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const request = http.request(`${url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(withLength ? { "content-length": String(mib * MiB) } : {}),
        ...headers,
      },
    });
    request.on("response", (res) => {
      answered = true;
      const at = written;
      let body = "";
      res.on("data", (part) => {
        body += part;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, writtenBeforeAnswer: at }));
    });
    // The server ends the connection after its answer: writes after it fail, which is the point.
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && written < mib * MiB) {
        written += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      if (!answered) request.end();
    };
    pump();
  });
}

describe("mock server limits: bounded input", function () {
  this.timeout(60_000);
  let mock: MockServer;
  afterEach(async () => {
    await mock?.close();
  });

  it("answers 413 to a body over 1 MiB, in the Edge API's error envelope and the Frontdoor API's shape", async () => {
    mock = await startMockServer();
    assert.equal(MOCK_LIMITS.maxBodyBytes, MiB);
    const edge = await postLarge(mock.url, "/edge/management/v1/services", 2);
    assert.equal(edge.status, 413);
    const envelope = JSON.parse(edge.body);
    assert.deepEqual(Object.keys(envelope).sort(), ["error", "meta"]);
    assert.equal(envelope.error.code, "PAYLOAD_TOO_LARGE");
    assert.equal(envelope.error.message, `request body over the mock's limit of ${MiB} bytes`);
    assert.equal(typeof envelope.error.requestId, "string");
    const frontdoor = await postLarge(mock.url, "/frontdoor/fd-demo/auth-providers", 2, {}, true);
    assert.equal(frontdoor.status, 413);
    assert.deepEqual(JSON.parse(frontdoor.body), {
      error: "payload_too_large",
      message: `request body over the mock's limit of ${MiB} bytes`,
    });
    // Declared too large: answered before the client could send much of it.
    assert.ok(frontdoor.writtenBeforeAnswer < 32 * MiB, String(frontdoor.writtenBeforeAnswer));
    assert.deepEqual(mock.log, [], "a refused body reached the APIs");
  });

  it("three 50 MiB posts: each refused after 1 MiB, the mock's memory stays flat and its log empty", async () => {
    mock = await startMockServer();
    const before = process.memoryUsage();
    let peak = 0;
    const sample = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.heapUsed + now.arrayBuffers - (before.heapUsed + before.arrayBuffers));
    }, 5);
    const started = Date.now();
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await postLarge(mock.url, "/frontdoor/fd-demo/auth-providers", 50);
        assert.equal(answer.status, 413);
        assert.ok(answer.writtenBeforeAnswer < 32 * MiB, `sent ${answer.writtenBeforeAnswer} bytes first`);
      }
    } finally {
      clearInterval(sample);
    }
    const growth = peak / MiB;
    process.stdout.write(
      `      3 x 50 MiB posts: ${Date.now() - started} ms, peak heap+buffers growth ${growth.toFixed(1)} MiB\n`,
    );
    assert.ok(growth < 40, `the mock held ${growth.toFixed(1)} MiB`);
    assert.deepEqual(mock.log, []);
  });

  it("checks Host before it reads the body: a request for another site is refused at once", async () => {
    mock = await startMockServer();
    const port = new URL(mock.url).port;
    const answer = await postLarge(mock.url, "/frontdoor/fd-demo/auth-providers", 50, {
      host: `attacker.example:${port}`,
    });
    assert.equal(answer.status, 403);
    assert.deepEqual(JSON.parse(answer.body), {
      error: "forbidden",
      message: "Host must be a loopback name",
    });
    assert.ok(answer.writtenBeforeAnswer < 32 * MiB, `sent ${answer.writtenBeforeAnswer} bytes first`);
    assert.deepEqual(mock.log, []);
  });

  it("keeps the last logLimit requests, and each logged body's first logBodyChars characters", async () => {
    assert.deepEqual(
      { logLimit: MOCK_LIMITS.logLimit, logBodyChars: MOCK_LIMITS.logBodyChars },
      { logLimit: 1000, logBodyChars: 16 * 1024 },
    );
    mock = await startMockServer({ logLimit: 5, logBodyChars: 100, maxBodyBytes: 4096 });
    for (let i = 1; i <= 12; i++) await fetch(`${mock.url}/version?n=${i}`);
    assert.deepEqual(
      mock.log.map((e) => e.query),
      ["n=8", "n=9", "n=10", "n=11", "n=12"],
    );
    const name = "x".repeat(3000);
    await fetch(`${mock.url}/edge/management/v1/services`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name }),
    });
    const body = mock.log.at(-1)?.body ?? "";
    assert.equal(body, `${JSON.stringify({ name }).slice(0, 100)}... [${3011 - 100} more characters]`);
    const over = await fetch(`${mock.url}/edge/management/v1/services`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "y".repeat(4097),
    });
    assert.equal(over.status, 413);
    assert.equal(mock.log.length, 5);
  });
});
