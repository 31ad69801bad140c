// A Frontdoor create answered 2xx without a usable id (no body, no id, an empty id): the object may
// exist but is not named, so the create is as ambiguous as a lost answer (errors.answerWithoutIdError)
// and the engine looks the object up by name. The mock always answers with an id (as the contract
// says), so these answers come from the scripted server on 127.0.0.1, through the provider's own client.
import assert from "node:assert/strict";
import { ApiError } from "../provider/http/errors";
import { FrontdoorCollection } from "../provider/resources/frontdoorCollection";
import { configureFor, engine } from "./support/engine";
import { type ScriptedServer, startScriptedServer } from "./support/scriptedServer";

describe("Frontdoor create answered without an id (scripted server on 127.0.0.1)", function () {
  this.timeout(60_000);
  const providers = new FrontdoorCollection("AuthProvider", "auth-providers");
  const props = { name: "no-id", frontdoorId: "fd-answers" };
  let server: ScriptedServer;
  before(async () => {
    server = await startScriptedServer();
    await configureFor({
      "frontdoor:apiUrl": server.url,
      "frontdoor:frontdoorId": "fd-answers",
      "frontdoor:token": "answers-token-123456",
    });
  });
  after(() => server.close());

  for (const [what, body] of [
    ["no body", ""],
    ["no id", '{"name":"no-id"}'],
    ["an empty id", '{"id":"","name":"no-id"}'],
  ] as const) {
    it(`201 with ${what}: an ambiguous error naming the resource and the request, one POST`, async () => {
      server.seen.length = 0;
      server.script.push({ status: 201, body });
      const err = await providers.create(engine.context(), props, { name: "no-id" }).catch((e) => e);
      assert.ok(err instanceof ApiError, String(err));
      assert.equal(err.ambiguous, true);
      assert.equal(err.status, 201);
      assert.match(
        err.message,
        /AuthProvider "no-id".*POST \/frontdoor\/fd-answers\/auth-providers.*the answer has no id/,
      );
      assert.deepEqual(
        server.seen.map((s) => `${s.method} ${s.url}`),
        ["POST /frontdoor/fd-answers/auth-providers"],
      );
    });
  }

  it("201 with an id: the created object", async () => {
    server.script.push({ status: 201, body: '{"id":"made-1","name":"no-id"}' });
    const created = await providers.create(engine.context(), props, { name: "no-id" });
    assert.equal(created.id, "made-1");
  });
});
