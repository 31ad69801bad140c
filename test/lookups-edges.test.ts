// Edge lookups at their edges. A name ZitiQL cannot quote (a backslash) is searched with `contains` on
// its longest quotable part (provider/http/edge.ts nameFilter), so the controller's answer may hold
// other objects: the lookup answers the one named exactly. A lookup registers the secrets it answers
// for redaction. Lookups running at the same time share one client (one login) per settings: a lookup
// with other settings that starts and ends meanwhile leaves the shared client alone. A scripted
// controller on 127.0.0.1 holds its answers until the test lets them go, so the overlap is made by the
// test, not by timing.
import assert from "node:assert/strict";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { list, lookup } from "../provider/functions/lookups";
import { redact } from "../provider/redact";
import { testCa } from "./edge-support";
import { EdgeClient as RawClient } from "./support/edgeClient";
import { createChecked } from "./support/engine";
import { edgeSettings, useMockProvider } from "./support/fixtures";

/** A controller that answers logins at once and holds every other request until release(). */
async function holdingController() {
  let logins = 0;
  let released = false;
  const held: http.ServerResponse[] = [];
  const notFound = (res: http.ServerResponse) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "NOT_FOUND", message: "not found" } }));
  };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.includes("/authenticate")) {
        logins++;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data: { token: `session-${logins}`, expirationSeconds: 1800 } }));
      } else if (released) notFound(res);
      else held.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    logins: () => logins,
    release() {
      released = true;
      for (const res of held.splice(0)) notFound(res);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("Edge lookups: exact names, one shared client per settings", () => {
  const mock = useMockProvider();

  it("a name searched with `contains` answers the object of exactly that name, not the first found", async () => {
    const policy = (name: string) => ({ name, primary: { updb: { minPasswordLength: 9 } } });
    // Made first, so the controller lists it first; it contains the searched part "lk-edges-exact".
    await createChecked("AuthPolicy", policy("a-lk-edges-exact-decoy"));
    const exact = await createChecked("AuthPolicy", policy("lk-edges-exact\\x"));
    const found = await lookup("AuthPolicy", { name: "lk-edges-exact\\x" }, edgeSettings(mock));
    assert.equal(found.id, exact.id);
    assert.equal(found.name, "lk-edges-exact\\x");
  });

  it("a looked-up CA's verification token is registered for redaction, the CA made outside Pulumi", async () => {
    // Made by a raw API call (as a console makes it): the provider never read it before, and a CA's read
    // registers nothing itself (an Identity's or an EdgeRouter's does), so only the lookup can.
    const raw = new RawClient(mock.url);
    await raw.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
    const name = `lk-edges-console-ca-${Date.now()}`;
    const made = await raw.call("POST", "/cas", {
      body: {
        name,
        certPem: testCa(name).certPem,
        isAuthEnabled: true,
        isAutoCaEnrollmentEnabled: false,
        isOttCaEnrollmentEnabled: true,
        identityRoles: [],
      },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const found = await lookup("Ca", { name }, edgeSettings(mock));
    const token = String(found.verificationToken);
    assert.ok(token.length >= 8, `a CA has a verification token: ${token.length} characters`);
    assert.equal(redact(`token ${token}`), "token [secret]");
  });

  it("a list's argument errors name the function by its schema.json name, before any request", async () => {
    // getIdentities: the token of the function in schema.json (frontdoor:index:getIdentities).
    mock.clearLog();
    const err = await list("Identity", { filter: 42 } as never, edgeSettings(mock)).then(
      () => assert.fail("expected a refusal"),
      (e: Error) => e,
    );
    assert.match(err.message, /^getIdentities: filter: /);
    assert.deepEqual(mock.log, [], "no request sent");
  });

  it("a lookup with other settings that ends meanwhile leaves the shared client (and its login) to the others", async () => {
    const controller = await holdingController();
    try {
      const held = {
        edgeUrl: controller.url,
        edgeUsername: "held-reader",
        edgePassword: "held-password",
        maxRetries: "1",
      };
      const first = lookup("AuthPolicy", { id: "held-1" }, held).catch((e: Error) => e);
      // Other settings (the mock): its own client, made, used and closed while `first` waits.
      assert.equal((await lookup("AuthPolicy", { id: "default" }, edgeSettings(mock))).id, "default");
      const second = lookup("AuthPolicy", { id: "held-2" }, held).catch((e: Error) => e);
      controller.release();
      for (const outcome of await Promise.all([first, second]))
        assert.match(String((outcome as Error).message), /there is no AuthPolicy with id "held-\d"/);
      assert.equal(controller.logins(), 1, "the second lookup used the first one's client");
    } finally {
      await controller.close();
    }
  });
});
