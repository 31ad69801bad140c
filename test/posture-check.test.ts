// PostureCheck (all six types) through the provider's host entry points against the mock controller:
// create, refresh and import without drift, update with PUT, drift on exactly the changed properties,
// typeId change as a replacement, check-time errors naming the property, delete and 404-as-gone.
import assert from "node:assert/strict";
import type { Props } from "../provider/resource";
import * as edge from "./edge-support";
import { requestsTo, useMockProvider } from "./support/fixtures";

const HASH = "a".repeat(128);
const FINGERPRINT = "b".repeat(40);

/** One declaration per type (every optional field set), with a change for the update. */
const TYPES: { inputs: Props; change: Props }[] = [
  {
    inputs: {
      typeId: "OS",
      operatingSystems: [
        { type: "Windows", versions: [">=10.0.19041"] },
        { type: "macOS", versions: [">=13.0.0"] },
      ],
    },
    change: { operatingSystems: [{ type: "Linux" }] },
  },
  {
    inputs: { typeId: "DOMAIN", domains: ["corp.example.com", "ad.example.com"] },
    change: { domains: ["corp.example.com"] },
  },
  {
    inputs: { typeId: "MAC", macAddresses: ["00:11:22:33:44:55", "66:77:88:99:aa:bb"] },
    change: { macAddresses: ["00:11:22:33:44:55"] },
  },
  {
    inputs: {
      typeId: "PROCESS",
      process: {
        osType: "Windows",
        path: "C:\\edr\\agent.exe",
        hashes: [HASH],
        signerFingerprint: FINGERPRINT,
      },
    },
    change: { process: { osType: "Linux", path: "/opt/edr/agent" } },
  },
  {
    inputs: {
      typeId: "PROCESS_MULTI",
      semantic: "AnyOf",
      processes: [
        { osType: "Linux", path: "/opt/edr/agent", hashes: [HASH], signerFingerprints: [FINGERPRINT] },
        { osType: "macOS", path: "/Applications/EDR.app/agent" },
      ],
    },
    change: { semantic: "AllOf" },
  },
  {
    inputs: {
      typeId: "MFA",
      timeoutSeconds: 3600,
      promptOnWake: true,
      promptOnUnlock: true,
      ignoreLegacyEndpoints: true,
    },
    change: { timeoutSeconds: 600, promptOnUnlock: false },
  },
];

describe("PostureCheck", () => {
  const mock = useMockProvider();

  const requests = requestsTo(mock);

  for (const { inputs: typeInputs, change } of TYPES) {
    const type = String(typeInputs.typeId);
    it(`${type}: create, refresh and import clean, update with PUT, exact drift, delete`, async () => {
      const inputs = { name: `pc-${type}`, roleAttributes: ["workstations", "laptops"], ...typeInputs };
      const { id, outs } = await edge.createChecked("PostureCheck", inputs);
      const stored = mock.edge.get("posture-checks", id)!;
      assert.equal(stored.typeId, type);
      assert.equal(outs.version, 1);
      await edge.expectNoDrift("PostureCheck", id, outs, inputs);
      await edge.importById("PostureCheck", id, inputs);

      const news = { ...inputs, ...change, tags: { changed: true } };
      const { diff, result } = await edge.updateChecked("PostureCheck", id, outs, news);
      assert.equal(diff.changes, true);
      assert.deepEqual(diff.replaces, []);
      assert.equal(requests("PUT", `/posture-checks/${id}`).length, 1);
      assert.equal(requests("PATCH", `/posture-checks/${id}`).length, 0);
      const updated = result!.outs as Props;
      assert.equal(updated.version, 2);
      for (const key of Object.keys(change)) assert.notDeepEqual(updated[key], outs[key], key);
      await edge.expectNoDrift("PostureCheck", id, updated, news);

      // Behind its back: a role attribute and the type's own first field.
      const [field] = Object.keys(typeInputs).filter((k) => k !== "typeId");
      mock.edge.patch("posture-checks", id, { roleAttributes: ["intruders"], [field]: outs[field] });
      assert.deepEqual(
        await edge.driftedProperties("PostureCheck", id, updated, news),
        [field, "roleAttributes"].sort(),
      );

      await edge.engine.remove("PostureCheck", id, updated);
      assert.equal((await edge.refresh("PostureCheck", id, updated, news)).gone, true);
      await edge.engine.remove("PostureCheck", id, updated); // already gone: fine
    });
  }

  it("defaults and null-versus-empty are not drift; sets ignore order; a new typeId replaces", async () => {
    const inputs = { name: "pc-minimal-mfa", typeId: "MFA" };
    const { id, outs } = await edge.createChecked("PostureCheck", inputs);
    assert.deepEqual(
      [outs.timeoutSeconds, outs.promptOnWake, outs.promptOnUnlock, outs.ignoreLegacyEndpoints],
      [-1, false, false, false],
    );
    mock.edge.patch("posture-checks", id, { roleAttributes: null, tags: null });
    await edge.expectNoDrift("PostureCheck", id, outs, inputs);
    await edge.importById("PostureCheck", id, inputs);
    const replaced = await edge.engine.diff(
      "PostureCheck",
      id,
      outs,
      (
        await edge.engine.check("PostureCheck", outs, {
          name: "pc-minimal-mfa",
          typeId: "DOMAIN",
          domains: ["x"],
        })
      ).inputs,
    );
    assert.deepEqual(replaced.replaces, ["typeId"]);
    assert.equal(replaced.deleteBeforeReplace, true);
    await edge.engine.remove("PostureCheck", id, outs);

    const domains = { name: "pc-domains", typeId: "DOMAIN", domains: ["b.example", "a.example"] };
    const made = await edge.createChecked("PostureCheck", domains);
    mock.edge.patch("posture-checks", made.id, { domains: ["a.example", "b.example"] });
    await edge.expectNoDrift("PostureCheck", made.id, made.outs, domains);
    await edge.engine.remove("PostureCheck", made.id, made.outs);
  });

  it("rejects bad inputs at check time, naming the property of the type", async () => {
    const failures = async (inputs: Props) =>
      (await edge.engine.check("PostureCheck", {}, { name: "bad", ...inputs })).failures
        .map((f) => f.property)
        .sort();
    assert.deepEqual(await failures({ typeId: "FIREWALL" }), ["typeId"]);
    assert.deepEqual(await failures({ typeId: "DOMAIN" }), ["domains"]);
    assert.deepEqual(await failures({ typeId: "DOMAIN", domains: [] }), ["domains"]);
    assert.deepEqual(await failures({ typeId: "MAC", macAddresses: ["aa:bb:cc:dd:ee:ff"], domains: ["x"] }), [
      "domains",
    ]);
    // The controller keeps only the hex digits of a MAC address ("a" would be stored as "a"): refused.
    assert.deepEqual(await failures({ typeId: "MAC", macAddresses: ["a"] }), ["macAddresses.0"]);
    assert.deepEqual(await failures({ typeId: "OS", operatingSystems: [{ type: "BeOS" }] }), [
      "operatingSystems.0.type",
    ]);
    assert.deepEqual(await failures({ typeId: "PROCESS", process: { osType: "Linux" } }), ["process.path"]);
    assert.deepEqual(await failures({ typeId: "PROCESS_MULTI", semantic: "OneOf", processes: [] }), [
      "processes",
      "semantic",
    ]);
    assert.deepEqual(await failures({ typeId: "MFA", timeoutSeconds: -5, promptOnWake: "yes" }), [
      "promptOnWake",
      "timeoutSeconds",
    ]);
    const [reason] = (await edge.engine.check("PostureCheck", {}, { name: "x", typeId: "MAC" })).failures;
    assert.equal(reason.property, "macAddresses");
  });
});
