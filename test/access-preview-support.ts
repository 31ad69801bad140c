// The access-preview scenario (test/programs/access-preview through the engine harness), shared by
// the mock suite (test/access-preview.test.ts) and the real-controller suite
// (test/real-access-preview.test.ts): each stage is previewed, the access the preview predicts is
// computed by the compiled audit command (`access --preview`), the stage is applied, and the diff
// measured around the `up` (`access --before`) must equal the prediction; what the preview cannot
// know must be reported as unknown until applied, and what the change then does must lie within it.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runHarness } from "../harness";
import type { Audit } from "./access-support";

export const PROGRAM = path.join(__dirname, "programs", "access-preview");
export const OWNER_TAG = "owner-tag-s3cret-7f3a";
/** The prediction of a change that touches no access: nothing added, removed, changed or unknown, no step. */
export const NO_ACCESS_CHANGE = {
  added: [],
  removed: [],
  changed: [],
  unknown: [],
  unresolved: [],
  steps: 0,
};

/** A grant line as `<type> <service> <identity>`. */
export const short = (l: { type: string; service: string; identity: string }) =>
  `${l.type} ${l.service} ${l.identity}`;

/** Where the scenario runs: provider settings for the program, and the audit command for the same API. */
export interface PreviewTarget {
  config: Record<string, string>;
  secretConfig: Record<string, string>;
  audit: Audit;
  /** Write requests the server has seen so far, when it can tell (the mock's log). */
  writes?: () => number;
  close(): Promise<void>;
}

export interface PreviewScenario {
  target: PreviewTarget;
  harness(command: "up" | "preview", stage: number): ReturnType<typeof runHarness>;
  dir: string;
}

export function ok(r: { exitCode: number; stdout: string; stderr: string }): void {
  assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
}

/**
 * The scenario's suite: stage 1 applied first, then 2 (a group's Dial policy, bob leaving #eng, a new
 * `@id` grant), 3 (a role list computed with apply), and back to 1 (deletes). `more` adds tests that
 * run after those, with the same target.
 */
export function describePreviewScenario(
  title: string,
  start: (ctx: Mocha.Context) => Promise<PreviewTarget>,
  more?: (scenario: () => PreviewScenario) => void,
): void {
  describe(title, function () {
    this.timeout(300_000);
    let target: PreviewTarget;
    let dir: string;

    const harness = (command: "up" | "preview", stage: number) =>
      runHarness(command, {
        programDir: PROGRAM,
        stateFile: path.join(dir, "state.json"),
        config: { ...target.config, stage: String(stage) },
        secretConfig: { ...target.secretConfig, ownerTag: OWNER_TAG },
      });
    const audit: Audit = (...args) => target.audit(...args);
    const json = async (...args: string[]) => {
      const r = await audit(...args, "--json");
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    /** Saves the live matrix, previews `stage`, and returns the prediction and the saved files. */
    const predict = async (stage: number, name: string) => {
      const before = path.join(dir, `${name}-before.json`);
      fs.writeFileSync(before, (await audit("access", "--json")).stdout);
      const writes = target.writes?.();
      const preview = await harness("preview", stage);
      ok(preview);
      assert.equal(target.writes?.(), writes, "a preview changes nothing");
      const file = path.join(dir, `${name}-preview.json`);
      fs.writeFileSync(file, preview.stdout);
      return { before, file, predicted: await json("access", "--preview", file) };
    };

    before(async function () {
      target = await start(this);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "access-preview-"));
      ok(await harness("up", 1));
    });
    after(async () => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      await target?.close();
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
      // bob and alice-db updated (db's new id), db replaced, ops-db, reporter, reports, reports-dial created
      assert.equal(predicted.steps, 7);
      // db is replaced: alice keeps binding it (by name) through alice-db's `@<id>` of the new db.
      const db = JSON.parse(fs.readFileSync(file, "utf8")).resources.find((r: any) => r.name === "db");
      assert.equal(db.op, "replace");
      assert.ok(db.oldId, "the replace names the object it replaces");

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
      assert.deepEqual(again.predicted, NO_ACCESS_CHANGE);
      assert.match((await audit("access", "--preview", again.file)).stdout, /No access is added or removed/);
    });

    it("reports a role list computed from a new object's id as unknown until applied; what up does lies within it", async () => {
      const { before, predicted } = await predict(3, "stage3");
      assert.deepEqual(predicted.added, []);
      assert.deepEqual(predicted.removed, []);
      assert.deepEqual(predicted.changed, []);
      assert.deepEqual(predicted.unresolved, [
        { resource: "audit-web", kind: "ServicePolicy", property: "identityRoles", from: ["auditor"] },
      ]);
      const unknown = predicted.unknown.map((u: any) => `${u.status}: ${short(u.line)}`);
      // The list may select anyone: each identity may come to dial ap-web through audit-web.
      assert.ok(unknown.includes("may be granted: Dial ap-web ap-auditor"), unknown.join("\n"));
      assert.ok(unknown.includes("may be granted: Dial ap-web ap-carol"), unknown.join("\n"));
      assert.ok(unknown.includes("details unknown: Dial ap-web ap-alice"), unknown.join("\n"));
      assert.ok(
        unknown.every((u: string) => u.includes(" ap-web ")),
        unknown.join("\n"),
      );
      const text = (await audit("access", "--preview", path.join(dir, "stage3-preview.json"))).stdout;
      assert.match(text, /^### Unknown until applied$/m);
      assert.match(text, /^\| may be granted \| ap-web \| Dial \| ap-auditor \| ap-audit-web \|/m);
      assert.match(text, /audit-web \(ServicePolicy\) `identityRoles` \(computed from auditor\)/);

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

    more?.(() => ({ target, harness, dir }));
  });
}
