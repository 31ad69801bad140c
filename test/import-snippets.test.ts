// The import helper prints a program that adopts existing objects: current settings as inputs,
// secrets as config placeholders (never their values), and an import id that carries the frontdoor.
import * as assert from "node:assert/strict";
import { context } from "../provider/engine";
import { importSnippets } from "../provider/tools/importSnippets";
import { type MockServer, startMockServer } from "./mock/server";
import { configureFor, createChecked, engine, mockConfig } from "./support/engine";

describe("import snippets", () => {
  let mock: MockServer;
  before(async () => {
    mock = await startMockServer();
    await configureFor(mockConfig(mock));
  });
  after(() => mock.close());

  it("prints one adopting declaration per existing auth provider, secrets as placeholders", async () => {
    const sso = await createChecked("AuthProvider", {
      name: "Corp SSO",
      type: "OIDC",
      data: { issuer: "https://login.example.com", client_id: "fd", client_secret: "snippet-secret-1" },
    });
    const key = await createChecked("AuthProvider", {
      name: "partner",
      type: "API_KEY",
      enabled: false,
      data: { header_name: "x-api-key", api_key: "snippet-api-key-0123456789" },
    });
    const text = await importSnippets(context(), { kinds: ["AuthProvider"] });
    const fd = mock.credentials.frontdoorId;
    assert.match(
      text,
      new RegExp(
        `new frontdoor\\.AuthProvider\\("corp-sso", \\{[^]*\\}, \\{ import: "${fd}/${sso.id}" \\}\\);`,
      ),
    );
    assert.match(
      text,
      new RegExp(
        `new frontdoor\\.AuthProvider\\("partner", [^]*enabled: false,[^]*import: "${fd}/${key.id}"`,
      ),
    );
    assert.match(text, /client_secret: config\.requireSecret\("corpSsoDataClientSecret"\)/);
    assert.match(text, /api_key: config\.requireSecret\("partnerDataApiKey"\)/);
    assert.doesNotMatch(text, /snippet-secret-1|snippet-api-key/);
    await engine.remove("AuthProvider", sso.id, sso.outs);
    await engine.remove("AuthProvider", key.id, key.outs);
  });
});
