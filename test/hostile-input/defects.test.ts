// Each defect the security review reproduced, as a test of its own (each
// failed on the code before the fix). Through the interfaces a user has: the command (the built
// package), the program it prints compiled and run against stub SDKs, the shell lines run by bash.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { context } from "../../provider/engine";
import { resourceDefinition } from "../../provider/resources";
import { importSnippets, programText } from "../../provider/tools/importSnippets";
import { migrationFromTerraform, terraformProgram } from "../../provider/tools/terraform";
import { createChecked } from "../support/engine";
import { useMockProvider } from "../support/fixtures";
import {
  commandsAfter,
  deep,
  importCli,
  type Recorded,
  runPrograms,
  runShell,
  withSecrets,
  workspace,
  ZITI,
} from "./support";

const state = (resources: unknown[]) => ({ version: 4, terraform_version: "1.9.8", serial: 1, resources });
const identity = (
  name: string,
  attributes: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  mode: "managed",
  type: "ziti_identity",
  name,
  provider: ZITI,
  instances: [{ attributes: { name, ...attributes }, ...extra }],
});

describe("hostile input: the defects the security review found, one test each", function () {
  this.timeout(60_000);
  let ws: ReturnType<typeof workspace>;
  let write: (name: string, doc: unknown) => string;
  before(() => {
    ws = workspace();
    write = (name, doc) => {
      const file = path.join(ws.dir, name);
      fs.writeFileSync(file, JSON.stringify(doc));
      return file;
    };
  });
  beforeEach(() => fs.rmSync(ws.sentinel, { force: true }));
  /** Each test ends here: an injection that ran wrote the sentinel (removed again, so the next test is its own). */
  const noInjection = () => {
    const injected = fs.existsSync(ws.sentinel);
    fs.rmSync(ws.sentinel, { force: true });
    assert.ok(!injected, "an injection wrote the sentinel");
  };

  const injection = () => `x" }); require("fs").writeFileSync(${JSON.stringify(ws.sentinel)}, "x"); ({ a: "`;

  it("an id that closes the string literal is the import id, never code (the listing's program and --from-terraform)", () => {
    const id = injection();
    const listing = programText(
      [{ def: resourceDefinition("AuthPolicy"), id, state: { name: "p" }, name: "p" }],
      {},
    );
    const printed = importCli("--from-terraform", write("id.tfstate", state([identity("alice", { id })])));
    assert.equal(printed.status, 0, printed.stderr);
    const runs = runPrograms(ws.dir, { listing, terraform: printed.stdout });
    for (const run of Object.values(runs)) {
      assert.equal(run.error, undefined);
      assert.deepEqual(
        run.records!.map((r) => r.opts),
        [{ import: id }],
      );
    }
    noInjection();
  });

  it("a CR in a provider address or an attribute name, U+2028 in a for_each key, cannot end a note's comment", () => {
    const code = (end: string) => `${end}require("fs").writeFileSync(${JSON.stringify(ws.sentinel)}, "x");//`;
    const doc = state([
      { ...identity("other", { id: "o1" }), provider: `provider["example.com/x${code("\r")}"]` },
      identity("carol", { id: "c1", [`mood${code("\r")}`]: "happy" }),
      {
        ...identity("team", {}),
        instances: [
          { index_key: `k${code("\u2028")}`, status: "tainted", attributes: { id: "t1", name: "t" } },
        ],
      },
      {
        ...identity("para", {}),
        instances: [{ index_key: code("\u2029"), deposed: "d", attributes: { id: "t2" } }],
      },
    ]);
    const printed = importCli("--from-terraform", write("notes.tfstate", doc));
    assert.equal(printed.status, 0, printed.stderr);
    const comments = printed.stdout.split("\n").filter((l) => l.startsWith("// "));
    assert.equal(comments.length, 4, printed.stdout);
    const run = runPrograms(ws.dir, { notes: printed.stdout }).notes;
    assert.equal(run.error, undefined);
    assert.deepEqual(
      run.records!.map((r) => r.opts.import),
      ["c1"],
    );
    // On stderr too, the notes show the characters as escapes (a terminal never gets a raw CR or ESC).
    for (const raw of ["\r", "\u2028", "\u2029", "\u001b"])
      assert.ok(!printed.stderr.includes(raw), `a raw ${JSON.stringify(raw)} on stderr`);
    noInjection();
  });

  it("the `terraform state rm` lines pass o'brien and x'$(touch ...)' as the one address they are", () => {
    const keys = ["o'brien", `x'$(touch ${ws.sentinel})'`, "a\nb", "$HOME"];
    const doc = state([
      {
        ...identity("u", {}),
        instances: keys.map((k, i) => ({ index_key: k, attributes: { id: `u${i}`, name: `u${i}` } })),
      },
    ]);
    const written = importCli(
      "--from-terraform",
      write("rm.tfstate", doc),
      "--import-file",
      path.join(ws.dir, "i.json"),
    );
    assert.equal(written.status, 0, written.stderr);
    const calls = runShell(ws.dir, commandsAfter(written.stderr, /remove them from the Terraform state/));
    assert.deepEqual(calls, [
      ["terraform", "state", "rm", `ziti_identity.u["o'brien"]`],
      ["terraform", "state", "rm", `ziti_identity.u["x'$(touch ${ws.sentinel})'"]`],
      ["terraform", "state", "rm", 'ziti_identity.u["a\\nb"]'],
      ["terraform", "state", "rm", 'ziti_identity.u["$HOME"]'],
    ]);
    noInjection();
  });

  it("the `pulumi state delete` lines pass a URN with a quote or a substitution exactly", () => {
    const names = ["o'brien", `x'$(touch ${ws.sentinel})'`];
    const urns = names.map((n) => `urn:pulumi:dev::p::pulumi-nodejs:dynamic/frontdoor:AuthPolicy::${n}`);
    const doc = {
      version: 3,
      deployment: {
        resources: urns.map((urn, i) => ({
          urn,
          type: "pulumi-nodejs:dynamic/frontdoor:AuthPolicy",
          id: `a${i}`,
        })),
      },
    };
    const written = importCli(
      "--from-state",
      write("stack.json", doc),
      "--import-file",
      path.join(ws.dir, "s.json"),
    );
    assert.equal(written.status, 0, written.stderr);
    const calls = runShell(ws.dir, commandsAfter(written.stderr, /forget the dynamic resources/));
    assert.deepEqual(
      calls,
      [...urns].reverse().map((urn) => ["pulumi", "state", "delete", "--yes", urn]),
    );
    noInjection();
  });

  it("a value Terraform marks sensitive is a secret config read of the program, never a literal; the command names the key", () => {
    const doc = state([
      identity(
        "alice",
        { id: "a1", app_data: { token: "tf-sensitive-7731", team: "net" } },
        {
          sensitive_attributes: [
            [
              { type: "get_attr", value: "app_data" },
              { type: "index", value: { value: "token", type: "string" } },
            ],
          ],
        },
      ),
    ]);
    const printed = importCli("--from-terraform", write("sensitive.tfstate", doc));
    assert.equal(printed.status, 0, printed.stderr);
    assert.ok(!printed.stdout.includes("tf-sensitive-7731"), printed.stdout);
    assert.ok(!printed.stderr.includes("tf-sensitive-7731"));
    const [record] = runPrograms(ws.dir, { sensitive: printed.stdout }).sensitive.records as Recorded[];
    const { found } = withSecrets(record.args, {});
    assert.deepEqual(
      found.map((f) => [f.path, f.marker]),
      [["appData.token", { __secret: "aliceAppDataToken", json: false }]],
    );
    assert.equal((record.args.appData as Record<string, unknown>).team, "net");
    const calls = runShell(ws.dir, commandsAfter(printed.stderr, /set the secret config keys/));
    assert.deepEqual(calls, [["pulumi", "config", "set", "--secret", "aliceAppDataToken"]]);
  });

  it("keys inside tags, app_data and service_hosting_costs/_precedence are kept byte for byte (a service id stays that id)", () => {
    const { objects } = migrationFromTerraform(
      state([
        identity("alice", {
          id: "a1",
          tags: { a_b: "x", "4Gz_gkQ": "y" },
          app_data: { snake_key: "v" },
          service_hosting_costs: { "4Gz_gkQ": 3 },
          service_hosting_precedence: { "4Gz_gkQ": "required" },
        }),
      ]),
    );
    assert.deepEqual(objects[0].inputs, {
      name: "alice",
      enrollment: { ott: true },
      tags: { a_b: "x", "4Gz_gkQ": "y" },
      appData: { snake_key: "v" },
      serviceHostingCosts: { "4Gz_gkQ": 3 },
      serviceHostingPrecedences: { "4Gz_gkQ": "required" },
    });
  });

  it("a tag, an attribute or a type named constructor or toString is data: kept, reported, never Object's", () => {
    const migration = migrationFromTerraform(
      state([
        identity("alice", { id: "a1", tags: { constructor: "c", toString: "t" }, toString: "x" }),
        { ...identity("b", { id: "b1" }), type: "constructor" },
        { ...identity("c", { id: "c1" }), type: "toString" },
      ]),
    );
    assert.deepEqual(
      migration.objects.map((o) => o.inputs),
      [{ name: "alice", enrollment: { ott: true }, tags: { constructor: "c", toString: "t" } }],
    );
    assert.deepEqual(
      migration.notMapped.map((e) => `${e.address} ${e.attribute ?? ""}: ${e.reason}`),
      [
        "ziti_identity.alice toString: Identity has no counterpart",
        'ziti_identity.alice tags: Identity.tags.constructor: the key "constructor" is not allowed; the provider refuses it at check (kept as it is: fix it in the program)',
        "constructor.b : constructor is not a resource type of netfoundry/ziti that this importer knows",
        "toString.c : toString is not a resource type of netfoundry/ziti that this importer knows",
      ],
    );
  });

  it("names with --, or that are reserved words or the program's own variables, make a program that compiles", () => {
    const names = [
      "legacy--web",
      "legacy-web",
      "config",
      "pulumi",
      "frontdoor",
      "delete",
      "class",
      "2fa",
      "require",
    ];
    const program = terraformProgram(
      migrationFromTerraform(state(names.map((n, i) => identity(n, { id: `i${i}` })))),
    );
    const run = runPrograms(ws.dir, { names: program }).names;
    assert.equal(run.error, undefined);
    assert.deepEqual(
      run.records!.map((r) => r.opts.import),
      names.map((_n, i) => `i${i}`),
    );
  });

  it("a value nested too deep is refused naming its place, not a stack overflow (Terraform state and listing)", () => {
    const doc = state([identity("alice", { id: "a1", tags: deep(100_000) })]);
    assert.throws(
      () => migrationFromTerraform(doc),
      /^Error: resources\[0\]\.instances\[0\]\.attributes\.tags(\.a)+: nested deeper than 64 levels$/,
    );
    assert.throws(
      () =>
        programText(
          [
            {
              def: resourceDefinition("Identity"),
              id: "a",
              state: { name: "a", tags: deep(100_000) },
              name: "a",
            },
          ],
          {},
        ),
      /^Error: Identity "a"\.tags(\.a)+: nested deeper than 64 levels$/,
    );
  });

  it("malformed state is refused with a message naming the place", () => {
    const cases: [unknown[], RegExp][] = [
      [[null], /^resources\[0\]: expected an object, found null$/],
      [
        [{ type: "ziti_identity", instances: "x" }],
        /^resources\[0\]\.instances: expected an array, found a string$/,
      ],
      [[identity("a", {}, {}), { type: 3 }], /^resources\[1\]\.type: expected a string, found a number$/],
      [
        [{ ...identity("a", {}), instances: [null] }],
        /^resources\[0\]\.instances\[0\]: expected an object, found null$/,
      ],
      [
        [{ ...identity("a", {}), instances: [{ attributes: [] }] }],
        /^resources\[0\]\.instances\[0\]\.attributes: expected an object, found an array$/,
      ],
      [
        [{ ...identity("a", {}), instances: [{ index_key: {}, attributes: {} }] }],
        /^resources\[0\]\.instances\[0\]\.index_key: expected a string or a number, found an object$/,
      ],
      [
        [identity("a", { id: "a" }, { sensitive_attributes: [[]] })],
        /^resources\[0\]\.instances\[0\]\.sensitive_attributes\[0\]: expected a path/,
      ],
    ];
    for (const [resources, message] of cases)
      assert.throws(
        () => migrationFromTerraform(state(resources)),
        (err: Error) => message.test(err.message),
        JSON.stringify(resources),
      );
    const printed = importCli(
      "--from-state",
      write("null.json", { deployment: { resources: [null] } }),
      "--import-file",
      path.join(ws.dir, "n.json"),
    );
    assert.equal(printed.status, 1);
    assert.equal(
      printed.stderr,
      "pulumi-frontdoor-import: deployment.resources[0]: expected an object, found null\n",
    );
  });

  it("naming is linear: 40,000 instances whose names collide are named (and printed) in seconds", () => {
    // 40,000 different keys of punctuation only: every one slugs to `team-k`, so the old namer probed
    // team-k-2, team-k-3, ... for each (quadratic); and counted each name's uses by a scan of all.
    const punctuation = (n: number) => n.toString(8).replace(/[0-7]/g, (d) => "!#%&()*+"[Number(d)]);
    const instances = Array.from({ length: 40_000 }, (_v, i) => ({
      index_key: `k${punctuation(i)}`,
      attributes: { id: `i${i}`, name: `n${i}` },
    }));
    const doc = state([{ ...identity("team", {}), instances }]);
    const started = Date.now();
    const migration = migrationFromTerraform(doc);
    const printed = terraformProgram(migration);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(new Set(migration.objects.map((o) => o.name)).size, 40_000);
    assert.equal((printed.match(/\{ import: /g) ?? []).length, 40_000);
    assert.ok(seconds < 8, `${seconds} s`);
  });
});

describe("hostile input: a controller's hostile names and tags, through the listing over HTTP", function () {
  this.timeout(60_000);
  const mock = useMockProvider();
  let ws: ReturnType<typeof workspace>;
  before(() => {
    ws = workspace();
  });

  it("prints a program that declares the names and tags the controller holds, exactly", async () => {
    const made = await createChecked("AuthPolicy", { name: "plain" });
    const name = `p" }); require("fs").writeFileSync(${JSON.stringify(ws.sentinel)}, "x"); ({ a: "\u2028`;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: hostile text, on purpose
    const tags = { "a\u2028b": "c\u2029d", "4Gz_gkQ": "`${x}`", "*/": "\r\n", ["__proto__"]: "p" };
    mock.edge.patch("auth-policies", made.id, { name, tags });
    const text = await importSnippets(context(), { kinds: ["AuthPolicy"] });
    const run = runPrograms(ws.dir, { listing: text }).listing;
    assert.equal(run.error, undefined);
    const record = run.records!.find((r) => r.opts.import === made.id)!;
    assert.equal(record.args.name, name);
    assert.deepEqual(record.args.tags, tags);
    assert.ok(!fs.existsSync(ws.sentinel));
  });
});
