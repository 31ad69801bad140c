// A user's TypeScript project, as Pulumi's TypeScript template makes it, type-checks with the packed
// package: a program that uses every resource and every function of schema.json (a new kind cannot be
// left out) compiles with `tsc --noEmit` under the template's tsconfig (strict, commonjs, node
// resolution, no esModuleInterop, no skipLibCheck), under node16 and under bundler resolution. The
// public declarations load neither the validation library's types nor the provider's own modules.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./peers";
import { everyTypeProgram } from "./support/everyTypeProgram";
import {
  createUserProject,
  devDependencyVersion,
  packPackage,
  TEMPLATE_COMPILER_OPTIONS,
  templateTsconfig,
  USER_PULUMI_VERSION,
} from "./support/userProject";

const run = promisify(execFile);

const TEMPLATE_OPTIONS = TEMPLATE_COMPILER_OPTIONS;

const CONFIGS: Record<string, Record<string, unknown>> = {
  "the Pulumi template (commonjs, node)": TEMPLATE_OPTIONS,
  "node16 resolution": { ...TEMPLATE_OPTIONS, module: "node16", moduleResolution: "node16" },
  "bundler resolution (module esnext)": {
    ...TEMPLATE_OPTIONS,
    module: "esnext",
    moduleResolution: "bundler",
  },
  "bundler resolution (module preserve)": {
    ...TEMPLATE_OPTIONS,
    module: "preserve",
    moduleResolution: "bundler",
  },
};

describe("a user's TypeScript project type-checks with the packed package", function () {
  this.timeout(900_000);
  let scratch: string;
  let project: string;

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-user-"));
    const packed = await packPackage(scratch);
    project = path.join(scratch, "my-infra");
    const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
    const files: Record<string, string> = { "index.ts": everyTypeProgram(schema) };
    Object.values(CONFIGS).forEach((compilerOptions, i) => {
      files[`tsconfig.${i}.json`] = templateTsconfig(compilerOptions);
    });
    await createUserProject(project, {
      files,
      manifest: { main: "index.ts" },
      install: [
        packed.tarball,
        `@pulumi/pulumi@${USER_PULUMI_VERSION}`,
        `typescript@${devDependencyVersion("typescript")}`,
        `@types/node@${devDependencyVersion("@types/node")}`,
      ],
    });
  });
  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("loads none of the provider's libraries in the program, and serializes each provider as a require", async () => {
    // A program under Pulumi's mocks declaring one resource of every kind (no validation runs in the
    // program, so plain names do). What it loaded, and the __provider each resource carries.
    const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
    const kinds = Object.keys(schema.resources).map((token) => token.split(":")[2]);
    fs.writeFileSync(
      path.join(project, "loading.js"),
      `const pulumi = require("@pulumi/pulumi");
       const providers = {};
       pulumi.runtime.setMocks({
         newResource: (args) => { providers[args.name] = args.inputs.__provider; return { id: args.name, state: args.inputs }; },
         call: (args) => args.inputs,
       });
       const frontdoor = require("pulumi-frontdoor");
       for (const kind of ${JSON.stringify(kinds)}) new frontdoor[kind](kind, { name: kind });
       const report = () => console.log(JSON.stringify({ loaded: Object.keys(require.cache), providers }));
       const wait = setInterval(() => {
         if (Object.keys(providers).length < ${kinds.length}) return;
         clearInterval(wait);
         report();
       }, 100);`,
    );
    const { stdout } = await run(process.execPath, ["loading.js"], {
      cwd: project,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 180_000,
    });
    const { loaded, providers } = JSON.parse(stdout.slice(stdout.indexOf("{")));
    assert.deepEqual(
      loaded.filter((f: string) => /\/node_modules\/(zod|undici|node-forge|ajv)\//.test(f)),
      [],
      "the provider's libraries were loaded in the program",
    );
    assert.deepEqual(
      loaded.filter((f: string) =>
        /pulumi-frontdoor\/bin\/provider\/(engine|resource|shape|resources\/|functions\/|http\/(client|edge|frontdoor|search))/.test(
          f,
        ),
      ),
      [],
      "the provider's engine, definitions or HTTP clients were loaded in the program",
    );
    assert.deepEqual(Object.keys(providers).sort(), [...kinds].sort());
    for (const kind of kinds) {
      const text: string = providers[kind];
      assert.ok(text.length < 2048, `${kind}: __provider is ${text.length} bytes`);
      assert.match(text, new RegExp(`require\\("pulumi-frontdoor/bin/provider/kinds/${kind}\\.js"\\)`));
    }
  });

  Object.keys(CONFIGS).forEach((name, i) => {
    it(`passes tsc --noEmit under ${name}, loading no zod and no provider module`, async () => {
      const tsc = path.join(project, "node_modules", "typescript", "bin", "tsc");
      const { stdout } = await run(
        process.execPath,
        [tsc, "-p", `tsconfig.${i}.json`, "--noEmit", "--pretty", "false", "--listFiles"],
        {
          cwd: project,
          maxBuffer: 64 * 1024 * 1024,
        },
      ).catch((error) => {
        const errors = String(error.stdout)
          .split("\n")
          .filter((l) => /error TS/.test(l));
        throw new Error(
          `tsc under ${name}: ${errors.length} errors, e.g.\n${errors.slice(0, 15).join("\n")}\n(${error.stderr})`,
        );
      });
      const loaded = stdout.split("\n").filter(Boolean);
      const ours = loaded.filter((f) => f.includes("/node_modules/pulumi-frontdoor/"));
      assert.ok(
        ours.some((f) => f.endsWith("/bin/sdk/index.d.ts")),
        "the SDK's declarations were not loaded",
      );
      assert.ok(
        ours.some((f) => f.endsWith("/bin/mock/index.d.ts")),
        "the mock's declarations were not loaded",
      );
      assert.deepEqual(
        loaded.filter((f) => /\/node_modules\/(zod|undici|node-forge|@types\/node-forge)\//.test(f)),
        [],
        "declarations of the provider's libraries",
      );
      assert.deepEqual(
        ours.filter((f) => f.includes("/bin/provider/")),
        [],
        "declarations of the provider's modules",
      );
    });
  });
});
