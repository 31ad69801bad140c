// The engine harness against the real dynamic-provider host, with the fixture program
// test/programs/harness-basic (objects kept as JSON files in a temp dir, every call logged).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type HarnessOptions, type HarnessResult, readState, runHarness } from "../harness";
import { makeCipher } from "../harness/crypto";
import { formatReport } from "../harness/format";
import { fullConfigKey } from "../harness/project";
import { SECRET_SIG, SIG_KEY } from "../harness/secrets";
import type { Item } from "./programs/harness-basic";

const programDir = path.join(__dirname, "programs", "harness-basic");
const SECRET = "s3cr3t-do-not-leak";
const DYNAMIC = "pulumi-nodejs:dynamic/harness:Obj";

/** A fresh stack: its own state file and object directory. */
function stack() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-test-"));
  const dataDir = path.join(dir, "data");
  const stateFile = path.join(dir, "state.json");
  const run = (
    command: "up" | "preview" | "refresh" | "destroy",
    items?: Item[],
    extra: Partial<HarnessOptions> = {},
  ) =>
    runHarness(command, {
      programDir,
      stateFile,
      ...extra,
      config: { dataDir, ...(items ? { spec: JSON.stringify({ items }) } : {}), ...extra.config },
    });
  const events = () =>
    fs.existsSync(path.join(dataDir, "events.log"))
      ? fs.readFileSync(path.join(dataDir, "events.log"), "utf8").trim().split("\n")
      : [];
  const objectFile = (id: string) => path.join(dataDir, "objects", `${id}.json`);
  const state = () => readState(stateFile);
  const resource = (name: string) => {
    const r = state().resources.find((x) => x.name === name && !x.pendingDelete);
    assert.ok(r, `${name} in state`);
    return r;
  };
  return { dir, dataDir, stateFile, run, events, objectFile, state, resource };
}

function ok(r: HarnessResult): HarnessResult {
  assert.equal(r.exitCode, 0, `harness failed:\n${r.stderr}\n${r.stdout}`);
  return r;
}

const ops = (r: HarnessResult) => Object.fromEntries(r.report.resources.map((x) => [x.name, x.op]));

describe("engine harness", function () {
  this.timeout(60000);

  it("creates resources in the real host: real ids for dependents, config, secrets encrypted and masked", async () => {
    const s = stack();
    const items = [
      { name: "a", key: "ka", value: "v1", secret: true },
      { name: "b", key: "kb", value: "vb", refTo: "a" },
    ];
    const r = ok(
      await s.run("up", items, { config: { label: "from-cli" }, secretConfig: { secretValue: SECRET } }),
    );
    assert.deepEqual(r.report.summary, { create: 2 });
    assert.deepEqual(ops(r), { a: "create", b: "create" });

    const a = s.resource("a");
    const b = s.resource("b");
    assert.equal(a.type, DYNAMIC);
    assert.match(a.id, /^obj-ka-/);
    assert.ok(fs.existsSync(s.objectFile(a.id)));
    // The dependent got the real id, not a mock one.
    assert.equal(b.inputs.ref, a.id);
    assert.equal(b.outputs.ref, a.id);
    assert.deepEqual(b.dependencies, [a.urn]);
    assert.deepEqual(r.report.outputs.ids, { a: a.id, b: b.id });

    // The provider ran inside the dynamic-provider host, deserialized from its `__provider` text.
    assert.match(a.outputs.argv, /cmd\/dynamic-provider\/index\.js/);
    assert.notEqual(a.outputs.pid, r.report.pid);
    assert.notEqual(a.outputs.pid, process.pid);
    assert.equal(typeof a.inputs.__provider, "string");
    assert.equal(r.report.resources[0].providerBytes, Buffer.byteLength(a.outputs.__provider));

    // Config from the command line reached the provider's configure and the program's pulumi.Config.
    assert.equal(a.outputs.label, "from-cli");
    assert.equal(r.report.outputs.label, "from-cli");

    // The secret input (and the output of the same key) is secret in state, encrypted on disk, masked in output.
    assert.deepEqual(a.inputs.secretValue, { [SIG_KEY]: SECRET_SIG, value: SECRET });
    assert.deepEqual(a.outputs.secretValue, { [SIG_KEY]: SECRET_SIG, value: SECRET });
    assert.equal(a.outputs.value, "v1");
    assert.deepEqual(s.state().config["harness-basic:secretValue"], { [SIG_KEY]: SECRET_SIG, value: SECRET });
    const raw = fs.readFileSync(s.stateFile, "utf8");
    assert.ok(!raw.includes(SECRET), "no plaintext secret in the state file");
    assert.ok(raw.includes('"ciphertext"'));
    assert.equal(fs.statSync(`${s.stateFile}.key`).mode & 0o777, 0o600);
    assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET));
    assert.equal(r.report.outputs.secrets.a, "[secret]");
    assert.equal(r.report.resources.find((x) => x.name === "a")!.outputs.secretValue, "[secret]");
  });

  it("updates in place, replaces create-before-delete, deletes what the program dropped", async () => {
    const s = stack();
    ok(
      await s.run("up", [
        { name: "a", key: "ka", value: "v1" },
        { name: "b", key: "kb" },
        { name: "c", key: "kc" },
      ]),
    );
    const before = { a: s.resource("a").id, b: s.resource("b").id, c: s.resource("c").id };

    const r = ok(
      await s.run("up", [
        { name: "a", key: "ka", value: "v2" },
        { name: "b", key: "kb2" },
      ]),
    );
    assert.deepEqual(ops(r), { a: "update", b: "replace", c: "delete" });
    assert.deepEqual(r.report.summary, { update: 1, replace: 1, delete: 1 });
    assert.equal(s.resource("a").id, before.a);
    assert.equal(s.resource("a").outputs.value, "v2");
    assert.notEqual(s.resource("b").id, before.b);
    assert.equal(s.state().resources.length, 2);
    const ev = s.events();
    assert.ok(ev.includes(`update ka ${before.a}`));
    assert.ok(
      ev.indexOf(`create kb2 ${s.resource("b").id}`) < ev.indexOf(`delete kb ${before.b}`),
      ev.join("\n"),
    );
    assert.ok(ev.includes(`delete kc ${before.c}`));
    assert.ok(!fs.existsSync(s.objectFile(before.c)));

    const same = ok(
      await s.run(
        "up",
        [
          { name: "a", key: "ka", value: "v2" },
          { name: "b", key: "kb2" },
        ],
        { expectNoChanges: true },
      ),
    );
    assert.deepEqual(same.report.summary, { same: 2 });
  });

  it("replaces delete-before-create (option or diff), keeps the old object when a replace fails", async () => {
    const s = stack();
    const gen = (g: number): Item[] => [
      { name: "opt", key: "k1", generation: g, deleteBeforeReplace: true },
      { name: "fromDiff", key: "k2", generation: g, dbrFromDiff: true },
      // Same key, create-before-delete: the fixture refuses the duplicate key.
      { name: "collides", key: "k3", generation: g },
    ];
    ok(await s.run("up", gen(1)));
    const old = {
      opt: s.resource("opt").id,
      fromDiff: s.resource("fromDiff").id,
      collides: s.resource("collides").id,
    };

    const r = await s.run("up", gen(2));
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /collides.*key "k3" already exists/);
    assert.equal(r.report.failures.length, 1);
    assert.equal(r.report.failures[0].name, "collides");
    const ev = s.events();
    for (const [name, key] of [
      ["opt", "k1"],
      ["fromDiff", "k2"],
    ]) {
      const created = s.resource(name).id;
      assert.notEqual(created, old[name as "opt"]);
      assert.ok(
        ev.indexOf(`delete ${key} ${old[name as "opt"]}`) < ev.indexOf(`create ${key} ${created}`),
        ev.join("\n"),
      );
    }
    // The failed replace lost nothing: the old object is still in state and still exists.
    assert.equal(s.resource("collides").id, old.collides);
    assert.ok(fs.existsSync(s.objectFile(old.collides)));
  });

  it("preview plans without create/update/delete calls and never writes state", async () => {
    const s = stack();
    ok(
      await s.run("up", [
        { name: "a", key: "ka", value: "v1" },
        { name: "b", key: "kb" },
      ]),
    );
    const stateBefore = fs.readFileSync(s.stateFile, "utf8");
    const eventsBefore = s.events();
    const r = ok(
      await s.run("preview", [
        { name: "a", key: "ka", value: "v2" },
        { name: "n", key: "kn", refTo: "a" },
      ]),
    );
    assert.deepEqual(ops(r), { a: "update", n: "create", b: "delete" });
    assert.equal(r.report.preview, true);
    assert.deepEqual(s.events(), eventsBefore);
    assert.equal(fs.readFileSync(s.stateFile, "utf8"), stateBefore);
    const changes = await s.run("preview", [{ name: "a", key: "ka", value: "v1" }], {
      expectNoChanges: true,
    });
    assert.equal(changes.exitCode, 1, "b would be deleted");
  });

  it("fails up on check failures, naming the property; independent steps still finish", async () => {
    const s = stack();
    const r = await s.run("up", [
      { name: "bad", key: "kbad", value: "INVALID-x" },
      { name: "good", key: "kgood" },
    ]);
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /bad.*check failed for bad:\s*\n\s*value: must not contain INVALID/);
    assert.equal(r.report.failures[0].name, "bad");
    assert.equal(s.resource("good").name, "good");
    assert.equal(s.state().resources.length, 1);
  });

  it("refresh: clean, drift with old/new values, deleted objects, --expect-no-changes", async () => {
    const s = stack();
    ok(
      await s.run("up", [
        { name: "a", key: "ka", value: "v1" },
        { name: "b", key: "kb", value: "vb" },
      ]),
    );
    const clean = ok(await s.run("refresh", undefined, { expectNoChanges: true }));
    assert.deepEqual(clean.report.changes, []);

    const a = s.resource("a");
    const b = s.resource("b");
    const obj = JSON.parse(fs.readFileSync(s.objectFile(a.id), "utf8"));
    fs.writeFileSync(s.objectFile(a.id), JSON.stringify({ ...obj, value: "changed-outside" }));
    fs.rmSync(s.objectFile(b.id));

    const r = await s.run("refresh", undefined, { expectNoChanges: true });
    assert.equal(r.exitCode, 1);
    assert.deepEqual(
      [...r.report.changes].sort((x, y) => x.name.localeCompare(y.name)),
      [
        {
          urn: a.urn,
          name: "a",
          type: DYNAMIC,
          kind: "update",
          properties: [
            {
              name: "value",
              old: "v1",
              new: "changed-outside",
              leaves: [{ path: "value", old: "v1", new: "changed-outside" }],
            },
          ],
        },
        { urn: b.urn, name: "b", type: DYNAMIC, kind: "delete", properties: [] },
      ],
    );
    assert.equal(s.resource("a").outputs.value, "changed-outside");
    assert.deepEqual(
      s.state().resources.map((x) => x.name),
      ["a"],
    );

    // The human report names resource, type, property, old and new values.
    const human = formatReport(r.report);
    assert.match(human, /~ update\s+harness:Obj\s+a\n\s+~ value: v1 => changed-outside\n/);
    assert.match(human, /- delete\s+harness:Obj\s+b/);

    const again = await s.run("refresh");
    assert.equal(again.report.changes.length, 1, "still drifted from the program's inputs");
    assert.equal(again.exitCode, 0, "without --expect-no-changes drift is not an error");
  });

  it("destroy deletes dependents first and empties the state", async () => {
    const s = stack();
    ok(
      await s.run("up", [
        { name: "a", key: "ka" },
        { name: "b", key: "kb", refTo: "a" },
      ]),
    );
    const ids = { a: s.resource("a").id, b: s.resource("b").id };
    const r = ok(await s.run("destroy"));
    assert.deepEqual(r.report.summary, { delete: 2 });
    const ev = s.events();
    assert.ok(ev.indexOf(`delete kb ${ids.b}`) < ev.indexOf(`delete ka ${ids.a}`), ev.join("\n"));
    assert.deepEqual(s.state().resources, []);
    assert.deepEqual(fs.readdirSync(path.join(s.dataDir, "objects")), []);
  });

  it("imports an existing object by id, and refuses an import that would change it", async () => {
    const s = stack();
    ok(await s.run("up", [{ name: "orig", key: "ki", value: "v" }]));
    const id = s.resource("orig").id;
    const other = stack();
    const config = { dataDir: s.dataDir };
    const bad = await other.run("up", [{ name: "imp", key: "ki", value: "different", importId: id }], {
      config,
    });
    assert.equal(bad.exitCode, 1);
    assert.match(bad.stderr, /import of imp .*would change properties \[value\]/);
    const r = ok(await other.run("up", [{ name: "imp", key: "ki", value: "v", importId: id }], { config }));
    assert.deepEqual(ops(r), { imp: "import" });
    assert.equal(other.resource("imp").id, id);
    assert.equal(s.events().filter((e) => e.startsWith("create")).length, 1, "import created nothing");
  });

  it("names config keys like pulumi and refuses a wrong passphrase", () => {
    assert.equal(fullConfigKey("proj", "apiUrl"), "proj:apiUrl");
    assert.equal(fullConfigKey("proj", "frontdoor:apiUrl"), "frontdoor:apiUrl");
    assert.equal(fullConfigKey("proj", "frontdoor:config:apiUrl"), "frontdoor:apiUrl");

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "harness-crypto-")), "s.json");
    const saved = process.env.PULUMI_CONFIG_PASSPHRASE;
    try {
      process.env.PULUMI_CONFIG_PASSPHRASE = "right";
      const ct = makeCipher(file, "c2FsdA==").encrypt({ x: 1 });
      assert.deepEqual(makeCipher(file, "c2FsdA==").decrypt(ct), { x: 1 });
      process.env.PULUMI_CONFIG_PASSPHRASE = "wrong";
      assert.throws(() => makeCipher(file, "c2FsdA==").decrypt(ct), /wrong PULUMI_CONFIG_PASSPHRASE/);
      assert.ok(!fs.existsSync(`${file}.key`), "no key file when a passphrase is set");
    } finally {
      if (saved === undefined) delete process.env.PULUMI_CONFIG_PASSPHRASE;
      else process.env.PULUMI_CONFIG_PASSPHRASE = saved;
    }
  });
});
