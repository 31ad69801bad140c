// What check stores, and where the defaults come back (issue 23: the state is written after every
// step, so what it holds per resource is paid at every step). Check keeps the properties the program
// gave, normalised; the defaults of the ones it left unset are filled in by create, update and diff
// instead. Expected values come from outside the provider: the swagger's `required` lists of the
// create and update bodies (test/contracts copy of the shared spec), and the program's own inputs.
// Requests are asserted from the mock's log (127.0.0.1).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { issueCertificate } from "../mock/edge/pki";
import * as engine from "../provider/engine";
import { previewCreate } from "../provider/plugin/provider";
import type { Props } from "../provider/resource";
import { useMockProvider } from "./support/fixtures";

const EDGE = "/edge/management/v1";
const swagger = JSON.parse(
  fs.readFileSync(path.join(__dirname, "contracts", "openziti-edge-management.json"), "utf8"),
) as { definitions: Record<string, { required?: string[] }> };

/** The properties the swagger requires in a body (e.g. `serviceCreate`). */
const required = (definition: string) => swagger.definitions[definition].required ?? [];

/** The keys check stored that have a value (the engine's `__provider` slot aside). */
const storedKeys = (inputs: Props) =>
  Object.keys(inputs)
    .filter((k) => k !== "__provider" && inputs[k] !== undefined)
    .sort();

describe("stored inputs: check keeps what the program gave, create/update/diff fill the defaults (mock on 127.0.0.1)", function () {
  this.timeout(60_000);
  const mock = useMockProvider();
  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
  const bodies = (method: string, collection: string) =>
    mock.log
      .filter((e) => e.method === method && e.path.startsWith(`${EDGE}/${collection}`))
      .map((e) => JSON.parse(e.body ?? "{}") as Props);

  it("check stores the given properties only, not the defaults of those left unset", async () => {
    // A property given as undefined is left unset too (its default is not stored in its place).
    const given = { name: "s", roleAttributes: ["a"], terminatorStrategy: undefined };
    const { inputs, failures } = await engine.check("Service", {}, given);
    assert.deepEqual(failures, []);
    assert.deepEqual(storedKeys(inputs), ["name", "roleAttributes"]);
    const identity = await engine.check("Identity", {}, { name: "i", type: "Device" });
    assert.deepEqual(storedKeys(identity.inputs), ["name", "type"]);
  });

  it("check still stores the given values normalised (a CA's PEM with CRLF line ends)", async () => {
    const { certPem } = issueCertificate({ commonName: "Stored CA", isCa: true });
    const lf = certPem.replace(/\r/g, "");
    assert.ok(lf.endsWith("-----END CERTIFICATE-----\n"));
    const { inputs, failures } = await engine.check(
      "Ca",
      {},
      { name: "ca", certPem: lf.replace(/\n/g, "\r\n") },
    );
    assert.deepEqual(failures, []);
    assert.equal(inputs.certPem, lf);
  });

  it("create sends every property the swagger requires, filled in where the program left it unset", async () => {
    mock.log.length = 0;
    const name = unique("svc");
    const { inputs } = await engine.check("Service", {}, { name });
    const made = await engine.create("Service", inputs);
    const [body] = bodies("POST", "services");
    for (const key of required("serviceCreate"))
      assert.notEqual(body[key], undefined, `POST body lacks ${key}`);
    // And no drift: the stored outputs against the same (default-less) inputs.
    assert.deepEqual((await engine.diff("Service", made.id, made.outs, inputs)).changed, []);
    await engine.remove("Service", made.id, made.outs);

    mock.log.length = 0;
    const identity = await engine.check("Identity", {}, { name: unique("id"), type: "Device" });
    const person = await engine.create("Identity", identity.inputs);
    const [sent] = bodies("POST", "identities");
    for (const key of required("identityCreate"))
      assert.notEqual(sent[key], undefined, `POST body lacks ${key}`);
    assert.deepEqual((await engine.diff("Identity", person.id, person.outs, identity.inputs)).changed, []);
    // An update from default-less inputs sends the whole body the swagger requires.
    const renamed = await engine.check("Identity", identity.inputs, {
      ...identity.inputs,
      name: unique("id"),
    });
    await engine.update("Identity", person.id, person.outs, renamed.inputs);
    const [put] = bodies("PUT", "identities");
    for (const key of required("identityUpdate"))
      assert.notEqual(put[key], undefined, `PUT body lacks ${key}`);
    await engine.remove("Identity", person.id, person.outs);
  });

  it("a property set in the program and then removed is a change, and the update resets it to its default", async () => {
    mock.log.length = 0;
    const name = unique("svc");
    const weighted = await engine.check("Service", {}, { name, terminatorStrategy: "weighted" });
    const made = await engine.create("Service", weighted.inputs);
    assert.equal(made.outs.terminatorStrategy, "weighted");
    const plain = await engine.check("Service", weighted.inputs, { name });
    assert.deepEqual((await engine.diff("Service", made.id, made.outs, plain.inputs)).changed, [
      "terminatorStrategy",
    ]);
    const updated = await engine.update("Service", made.id, made.outs, plain.inputs);
    const [put] = bodies("PUT", "services");
    // The value the program had given is gone: what goes out is the declared default, not the old value.
    assert.notEqual(put.terminatorStrategy, "weighted");
    assert.equal(typeof put.terminatorStrategy, "string");
    assert.equal(updated.outs.terminatorStrategy, put.terminatorStrategy);
    await engine.remove("Service", made.id, updated.outs);
  });

  it("the plugin's preview of a create shows the filled-in inputs, not a property missing", () => {
    const outs = previewCreate("Service", { name: "s" });
    for (const key of required("serviceCreate"))
      assert.notEqual(outs[key], undefined, `preview lacks ${key}`);
  });
});
