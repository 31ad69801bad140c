// The access a change adds or removes, predicted from its preview (`pulumi-frontdoor-audit access
// --preview`), against the mock over real HTTP, with the program of test/programs/access-preview run
// through the engine harness: the prediction from the harness's `preview --json` must equal the diff
// measured around the `up` that applies the change. A value the preview cannot know (a role list
// computed from a new object's id) is reported as unknown until applied, and what the change then
// does lies within what was reported.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EdgeConfiguration } from "../provider/audit/access";
import { previewAccess, readPreviewSteps } from "../provider/audit/preview";
import { UNKNOWN } from "../provider/audit/roles";
import { type Audit, auditOn } from "./access-support";
import { runHarness } from "./harness";
import { type MockServer, startMockServer } from "./mock/server";
import { mockConfig } from "./support/engine";

const PROGRAM = path.join(__dirname, "programs", "access-preview");
const OWNER_TAG = "owner-tag-s3cret-7f3a";

/** A grant line as `<type> <service> <identity>`. */
const short = (l: { type: string; service: string; identity: string }) =>
  `${l.type} ${l.service} ${l.identity}`;

describe("access --preview: the access a change adds or removes, before it is applied (harness, mock)", function () {
  this.timeout(240_000);
  let mock: MockServer;
  let audit: Audit;
  let dir: string;
  let config: Record<string, string>;
  let secretConfig: Record<string, string>;

  const harness = (command: "up" | "preview", stage: number) =>
    runHarness(command, {
      programDir: PROGRAM,
      stateFile: path.join(dir, "state.json"),
      config: { ...config, stage: String(stage) },
      secretConfig,
    });
  const ok = (r: { exitCode: number; stdout: string; stderr: string }) =>
    assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
  const json = async (...args: string[]) => {
    const r = await audit(...args, "--json");
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  /** Saves the live matrix, previews `stage`, and returns the prediction and the saved files. */
  const predict = async (stage: number, name: string) => {
    const before = path.join(dir, `${name}-before.json`);
    fs.writeFileSync(before, (await audit("access", "--json")).stdout);
    const writes = mock.log.filter((e) => e.method !== "GET").length;
    const preview = await harness("preview", stage);
    ok(preview);
    assert.equal(mock.log.filter((e) => e.method !== "GET").length, writes, "a preview changes nothing");
    const file = path.join(dir, `${name}-preview.json`);
    fs.writeFileSync(file, preview.stdout);
    return { before, file, predicted: await json("access", "--preview", file) };
  };

  before(async () => {
    mock = await startMockServer();
    audit = auditOn(mock);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "access-preview-"));
    // The Edge API's settings only: the program declares no Frontdoor object.
    const {
      "frontdoor:edgeUrl": edgeUrl,
      "frontdoor:edgeUsername": edgeUsername,
      "frontdoor:edgePassword": edgePassword,
    } = mockConfig(mock);
    const plain = { "frontdoor:edgeUrl": edgeUrl, "frontdoor:edgeUsername": edgeUsername };
    config = plain;
    secretConfig = { "frontdoor:edgePassword": edgePassword, ownerTag: OWNER_TAG };
    ok(await harness("up", 1));
  });
  after(async () => {
    await mock?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("predicts a group's new Dial policy, an identity leaving a group and a new @id grant; up then does exactly that", async () => {
    const { before, file, predicted } = await predict(2, "stage2");
    assert.deepEqual(predicted.unknown, [], "every unknown id was tied to the object it comes from");
    assert.deepEqual(predicted.unresolved, []);
    assert.deepEqual(predicted.added.map(short), ["Dial ap-db ap-carol", "Dial ap-reports ap-reporter"]);
    assert.deepEqual(predicted.removed.map(short), ["Dial ap-web ap-bob"]);
    assert.deepEqual(predicted.changed, []);
    assert.deepEqual(predicted.added[1].policies, ["ap-reports-dial"]);
    assert.deepEqual(predicted.added[1].edgeRouters, ["ap-router"]);
    assert.equal(predicted.steps, 5, "bob updated; ops-db, reporter, reports, reports-dial created");

    const text = await audit("access", "--preview", file);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^\| added \| ap-reports \| Dial \| ap-reporter \| ap-reports-dial \| ap-router \| — \|$/m,
    );
    assert.match(
      text.stdout,
      /^\| removed \| ap-web \| Dial \| ap-bob \| ap-eng-web \| ap-router \| ap-eng-web: ap-mfa \|$/m,
    );
    assert.doesNotMatch(text.stdout, /Unknown until applied/);
    assert.equal(
      (await audit("access", "--preview", file, "--exit-code")).code,
      1,
      "--exit-code: access changes",
    );

    ok(await harness("up", 2));
    const actual = await json("access", "--before", before);
    const { added, removed, changed } = predicted;
    assert.deepEqual({ added, removed, changed }, actual, "predicted == applied");
    for (const out of [text.stdout, JSON.stringify(predicted), fs.readFileSync(file, "utf8")])
      assert.ok(!out.includes(OWNER_TAG), "a secret input reached the report");

    const again = await predict(2, "stage2-again");
    assert.deepEqual(again.predicted, {
      added: [],
      removed: [],
      changed: [],
      unknown: [],
      unresolved: [],
      steps: 0,
    });
    assert.match((await audit("access", "--preview", again.file)).stdout, /No access is added or removed/);
  });

  it("reports a role list computed from a new object's id as unknown until applied; what up does lies within it", async () => {
    const { before, predicted } = await predict(3, "stage3");
    assert.deepEqual(predicted.added, []);
    assert.deepEqual(predicted.removed, []);
    assert.deepEqual(predicted.changed, []);
    assert.deepEqual(predicted.unresolved, [
      { resource: "audit-web", kind: "ServicePolicy", property: "identityRoles" },
    ]);
    const unknown = predicted.unknown.map((u: any) => `${u.status}: ${short(u.line)}`);
    // The list may select anyone: each identity may come to dial ap-web through audit-web.
    assert.ok(unknown.includes("may be granted: Dial ap-web ap-auditor"), unknown.join("\n"));
    assert.ok(unknown.includes("may be granted: Dial ap-web Default Admin"), unknown.join("\n"));
    assert.ok(unknown.includes("details unknown: Dial ap-web ap-alice"), unknown.join("\n"));
    assert.ok(
      unknown.every((u: string) => u.includes(" ap-web ")),
      unknown.join("\n"),
    );
    const text = (await audit("access", "--preview", path.join(dir, "stage3-preview.json"))).stdout;
    assert.match(text, /^### Unknown until applied$/m);
    assert.match(text, /^\| may be granted \| ap-web \| Dial \| ap-auditor \| ap-audit-web \|/m);
    assert.match(text, /audit-web \(ServicePolicy\) `identityRoles`/);

    ok(await harness("up", 3));
    const actual = await json("access", "--before", before);
    assert.deepEqual(actual.added.map(short), ["Dial ap-web ap-auditor"]);
    for (const line of [...actual.added, ...actual.changed.map((c: any) => c.after)])
      assert.ok(
        unknown.some((u: string) => u.endsWith(short(line))),
        `${short(line)} was not foreseen`,
      );
    assert.deepEqual(actual.removed, []);
  });

  it("predicts what deleting objects removes; up then does exactly that", async () => {
    const { before, predicted } = await predict(1, "back");
    assert.deepEqual(predicted.unknown, []);
    assert.deepEqual(predicted.added.map(short), ["Dial ap-web ap-bob"]);
    assert.deepEqual(predicted.removed.map(short), [
      "Dial ap-db ap-carol",
      "Dial ap-reports ap-reporter",
      "Dial ap-web ap-auditor",
    ]);
    ok(await harness("up", 1));
    const { added, removed, changed } = predicted;
    assert.deepEqual({ added, removed, changed }, await json("access", "--before", before));
  });

  it("refuses what is not a preview (exit 2, naming the file), and --before with --preview", async () => {
    const wrong = path.join(dir, "wrong.json");
    fs.writeFileSync(wrong, JSON.stringify({ services: [] }));
    const notPreview = await audit("access", "--preview", wrong);
    assert.equal(notPreview.code, 2);
    assert.match(notPreview.stderr, /--preview .*wrong\.json: not a preview/);
    const up = path.join(dir, "up.json");
    fs.writeFileSync(up, (await harness("up", 1)).stdout);
    const applied = await audit("access", "--preview", up);
    assert.equal(applied.code, 2);
    assert.match(applied.stderr, /the report of `up`, not of a preview/);
    const both = await audit("access", "--preview", up, "--before", up);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--before and --preview do not go together/);
  });
});

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
    assert.throws(
      () => readPreviewSteps({ diagnostics: [{ severity: "error", message: "boom" }] }, "p.json"),
      /--preview p\.json: the preview reported 1 error\(s\)/,
    );
  });
});
