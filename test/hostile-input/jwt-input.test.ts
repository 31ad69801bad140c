// Keyless login input that is hostile or wrong (provider/http/externalJwt.ts): a frontdoor:edgeJwtFile
// far larger than any JWT is refused naming the setting after reading at most 64 KiB of it, and a
// JWT whose exp, nbf or iat is not a finite number of seconds within Date's range is refused naming
// the setting it came from, never with a bare RangeError; neither reaches the controller (the
// mock's request log stays empty).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type MockServer, startMockServer } from "../../mock/server";
import { EdgeClient } from "../../provider/http/edge";
import { MAX_JWT_FILE_BYTES } from "../../provider/http/externalJwt";
import { useTempDir } from "../support/fixtures";

const MiB = 1024 * 1024;

/** A compact JWS whose claims are `claimsJson` as written (JSON numbers such as 1e400 kept as text). */
function jwtWithClaims(claimsJson: string): string {
  const part = (text: string) => Buffer.from(text).toString("base64url");
  return `${part('{"alg":"RS256","kid":"k1","typ":"JWT"}')}.${part(claimsJson)}.${part("signature")}`;
}

describe("hostile keyless login input", function () {
  this.timeout(30_000);
  const dir = useTempDir("hostile-jwt-");
  let mock: MockServer;
  let clients: EdgeClient[];
  before(async () => {
    mock = await startMockServer();
  });
  after(() => mock.close());
  beforeEach(() => {
    clients = [];
    mock.clearLog();
  });
  afterEach(() => Promise.all(clients.map((c) => c.close())));

  async function loginError(settings: Record<string, string>): Promise<Error> {
    const edge = new EdgeClient({ edgeUrl: mock.url, ...settings });
    clients.push(edge);
    const error = await edge.get("/services/x", "Service x").then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(error, "the login went through");
    return error;
  }

  it("refuses a 60 MB token file naming frontdoor:edgeJwtFile, without reading it whole", async () => {
    assert.equal(MAX_JWT_FILE_BYTES, 64 * 1024);
    const file = path.join(dir.path, "token.jwt");
    // Not sparse: 60 MB of text, as a log or a dump given by mistake would be (written 1 MiB at a time,
    // so that the test itself holds no 60 MB while it measures).
    const fd = fs.openSync(file, "w");
    const chunk = Buffer.alloc(MiB, "a");
    for (let i = 0; i < 60; i++) fs.writeSync(fd, chunk);
    fs.closeSync(fd);
    const before = process.memoryUsage();
    const started = Date.now();
    const error = await loginError({ edgeJwtFile: file });
    const ms = Date.now() - started;
    const after = process.memoryUsage();
    const growth = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / MiB;
    process.stdout.write(
      `      60 MB token file refused in ${ms} ms, heap+buffers growth ${growth.toFixed(1)} MiB\n`,
    );
    assert.equal(
      error.message,
      `frontdoor:edgeJwtFile (${file}) is larger than 64 KiB: not a JWT (is it the right file?)`,
    );
    assert.ok(growth < 20, `${growth.toFixed(1)} MiB held`);
    assert.deepEqual(mock.log, []);
  });

  it("still reads a token file of exactly 64 KiB (and refuses it as the JWT it is not)", async () => {
    const file = path.join(dir.path, "edge.jwt");
    fs.writeFileSync(file, Buffer.alloc(MAX_JWT_FILE_BYTES, "b"));
    const error = await loginError({ edgeJwtFile: file });
    assert.match(error.message, /frontdoor:edgeJwtFile \(.*\) was refused: it is not a JWT/);
  });

  for (const [claims, reason] of [
    ['{"iss":"https://issuer.test","exp":-1e20}', "its exp claim (-100000000000000000000) is not a time"],
    ['{"iss":"https://issuer.test","exp":1e400}', "its exp claim (Infinity) is not a time"],
    ['{"iss":"https://issuer.test","nbf":9e15}', "its nbf claim (9000000000000000) is not a time"],
    ['{"iss":"https://issuer.test","iat":"yesterday"}', "its iat claim is a string, not a time"],
    ['{"iss":"https://issuer.test","exp":null}', "its exp claim is a null, not a time"],
  ] as const) {
    it(`refuses a JWT with ${claims.slice(29, -1)} naming the setting, before any request`, async () => {
      const token = jwtWithClaims(claims);
      const error = await loginError({ edgeJwt: token });
      assert.notEqual(error.name, "RangeError");
      assert.ok(
        error.message.startsWith(
          `Edge authentication with an external JWT from frontdoor:edgeJwt was refused: ${reason}`,
        ),
        error.message,
      );
      const file = path.join(dir.path, "claims.jwt");
      fs.writeFileSync(file, token);
      const fromFile = await loginError({ edgeJwtFile: file });
      assert.ok(fromFile.message.includes(`from frontdoor:edgeJwtFile (${file}) was refused: ${reason}`));
      assert.deepEqual(mock.log, []);
    });
  }
});
