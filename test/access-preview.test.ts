// The access a change adds or removes, predicted from its preview (`pulumi-frontdoor-audit access
// --preview`), against the mock over real HTTP, with the program of test/programs/access-preview run
// through the engine harness: the prediction from the harness's `preview --json` must equal the diff
// measured around the `up` that applies the change. A value the preview cannot know (a role list
// computed from a new object's id) is reported as unknown until applied, and what the change then
// does lies within what was reported.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { startMockServer } from "../mock/server";
import type { EdgeConfiguration } from "../provider/audit/access";
import { previewAccess, readPreviewSteps } from "../provider/audit/preview";
import { UNKNOWN } from "../provider/audit/roles";
import { describePreviewScenario, NO_ACCESS_CHANGE, short } from "./access-preview-support";
import { auditOn } from "./access-support";
import { apiConfig } from "./support/engine";

describePreviewScenario(
  "access --preview: the access a change adds or removes, before it is applied (harness, mock)",
  async () => {
    const mock = await startMockServer();
    // The Edge API's settings only: the program declares no Frontdoor object.
    return {
      ...apiConfig(mock, "edge"),
      audit: auditOn(mock),
      // A login is no write: the preview logs in to prove the credentials (provider/preflight.ts).
      writes: () => mock.log.filter((e) => e.method !== "GET" && !e.path.endsWith("/authenticate")).length,
      close: () => mock.close(),
    };
  },
  (scenario) => {
    it("refuses what is not a preview (exit 2, naming the file), and --before with --preview", async () => {
      const wrong = path.join(scenario().dir, "wrong.json");
      fs.writeFileSync(wrong, JSON.stringify({ services: [] }));
      const notPreview = await scenario().target.audit("access", "--preview", wrong);
      assert.equal(notPreview.code, 2);
      assert.match(notPreview.stderr, /--preview .*wrong\.json: not a preview/);
      const up = path.join(scenario().dir, "up.json");
      fs.writeFileSync(up, (await scenario().harness("up", 1)).stdout);
      const applied = await scenario().target.audit("access", "--preview", up);
      assert.equal(applied.code, 2);
      assert.match(applied.stderr, /the report of `up`, not of a preview/);
      const both = await scenario().target.audit("access", "--preview", up, "--before", up);
      assert.equal(both.code, 2);
      assert.match(both.stderr, /--before and --preview do not go together/);
    });
  },
);

describe("access --preview: reading a preview's values", () => {
  // A live configuration: one identity with #eng, one service with #web, no policy yet.
  const live = (): EdgeConfiguration => ({
    identities: [{ id: "i1", name: "alice", roleAttributes: ["eng"] }],
    services: [{ id: "s1", name: "web", roleAttributes: ["web"] }],
    edgeRouters: [],
    postureChecks: [],
    servicePolicies: [],
    edgeRouterPolicies: [],
    serviceEdgeRouterPolicies: [],
  });
  const policyStep = (inputs: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    op: "create",
    urn: "urn:pulumi:prod::p::pulumi-nodejs:dynamic/frontdoor:ServicePolicy::pol",
    newState: { type: "pulumi-nodejs:dynamic/frontdoor:ServicePolicy", inputs, ...extra },
  });

  it("a masked secret in a role list is unknown, never shown; other inputs are not read", () => {
    const secret = "plain-text-secret-91";
    const steps = readPreviewSteps({
      steps: [
        policyStep({
          name: "p",
          type: "Dial",
          identityRoles: ["[secret]"],
          serviceRoles: ["#web"],
          tags: { owner: secret },
          __provider: secret,
        }),
      ],
    });
    const result = previewAccess(live(), steps);
    assert.ok(!JSON.stringify(result).includes(secret));
    assert.deepEqual(
      result.unknown.map((u) => `${u.status} ${short(u.line)}`),
      ["may be granted Dial web alice"],
    );
    assert.deepEqual(result.unresolved, [
      { resource: "pol", kind: "ServicePolicy", property: "identityRoles" },
    ]);
  });

  it("an unknown role is tied to a created object only when its property depends on exactly as many", () => {
    const identityUrn = "urn:pulumi:prod::p::pulumi-nodejs:dynamic/frontdoor:Identity::bob";
    const created = {
      op: "create",
      urn: identityUrn,
      newState: { type: "pulumi-nodejs:dynamic/frontdoor:Identity", inputs: { name: "bob" } },
    };
    const inputs = { name: "p", type: "Bind", identityRoles: [UNKNOWN], serviceRoles: ["#web"] };
    const tied = previewAccess(
      live(),
      readPreviewSteps({
        steps: [created, policyStep(inputs, { propertyDependencies: { identityRoles: [identityUrn] } })],
      }),
    );
    assert.deepEqual(tied.added.map(short), ["Bind web bob"]);
    assert.deepEqual(tied.unknown, []);
    // Two unknown roles, one created identity: which one is which cannot be told.
    const two = { ...inputs, identityRoles: [UNKNOWN, UNKNOWN] };
    const untied = previewAccess(
      live(),
      readPreviewSteps({
        steps: [created, policyStep(two, { propertyDependencies: { identityRoles: [identityUrn] } })],
      }),
    );
    assert.deepEqual(untied.added, []);
    assert.deepEqual(
      untied.unknown.map((u) => `${u.status} ${short(u.line)}`),
      ["may be granted Bind web alice", "may be granted Bind web bob"],
    );
  });

  it("a replaced object's grants move to its successor; a preview that failed is refused", () => {
    const urn = "urn:pulumi:prod::p::pulumi-nodejs:dynamic/frontdoor:Identity::alice";
    const policy = {
      id: "p1",
      name: "eng-web",
      type: "Dial",
      identityRoles: ["#eng"],
      serviceRoles: ["#web"],
    };
    const config = { ...live(), servicePolicies: [policy] };
    const replaced = previewAccess(
      config,
      readPreviewSteps({
        steps: [
          {
            op: "replace",
            urn,
            oldState: { id: "i1", type: "pulumi-nodejs:dynamic/frontdoor:Identity" },
            newState: {
              type: "pulumi-nodejs:dynamic/frontdoor:Identity",
              inputs: { name: "alice2", roleAttributes: ["eng"] },
            },
          },
        ],
      }),
    );
    assert.deepEqual(replaced.added.map(short), ["Dial web alice2"]);
    assert.deepEqual(replaced.removed.map(short), ["Dial web alice"]);
    // A resource of another package is not read, whatever its type's last name.
    const other = {
      ...policyStep({ name: "p", type: "Dial", identityRoles: ["#all"], serviceRoles: ["#all"] }),
    };
    other.newState.type = "other:index:ServicePolicy";
    other.urn = "urn:pulumi:prod::p::other:index:ServicePolicy::pol";
    assert.deepEqual(previewAccess(config, readPreviewSteps({ steps: [other] })), NO_ACCESS_CHANGE);
    assert.throws(
      () => readPreviewSteps({ diagnostics: [{ severity: "error", message: "boom" }] }, "p.json"),
      /--preview p\.json: the preview reported 1 error\(s\)/,
    );
  });
});
