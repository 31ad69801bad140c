// The package's weight in a user's program: how long a program that imports
// pulumi-frontdoor and declares one resource takes to start, against the same program declaring one
// resource of a do-nothing dynamic provider. Each program runs in a fresh Node process that loads
// @pulumi/pulumi and registers ts-node as the CLI's Node.js language host does (cmd/run/run.ts, with
// the project's tsconfig, the Pulumi template's; type-checking on unless transpile-only), runs under
// Pulumi's mocks (no engine), and reports when its resource was registered. Rounds are interleaved,
// the order flipped each round; medians and their ratio are printed.
//   npm run bench:program-start            (BENCH_ROUNDS=7 by default)
//   BENCH_PACKAGE=<dir>: measure another build of the package (a folder as npm installs it, e.g. another
//   checkout's node_modules/pulumi-frontdoor) instead of this checkout's installed copy.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { templateTsconfig } from "../test/support/userProject";
import { machine, median, row, table } from "./lib";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WORK = path.join(ROOT, "bench", "programs", `.work-start-${process.pid}`);

const PROGRAMS: Record<string, string> = {
  frontdoor: `import * as frontdoor from "pulumi-frontdoor";

export const service = new frontdoor.Service("app", { name: "app", roleAttributes: ["web"] }).id;
`,
  "do-nothing": `import * as pulumi from "@pulumi/pulumi";

const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: "app", outs: inputs };
  },
};

class Nothing extends pulumi.dynamic.Resource {
  constructor(name: string, props: { name: string; roleAttributes: string[] }) {
    super(provider, name, props, {}, "nothing", "Nothing");
  }
}

export const service = new Nothing("app", { name: "app", roleAttributes: ["web"] }).id;
`,
};

/**
 * The program process: what the language host does before the program (load @pulumi/pulumi, register
 * ts-node with the project's options), then the program under mocks. Times are ms since the process
 * started; the package's own require time is measured after @pulumi/pulumi, outside ts-node.
 */
const CHILD = `const t = () => performance.now();
const pulumi = require("@pulumi/pulumi");
const loadedPulumi = t();
const tsutils = require("@pulumi/pulumi/tsutils");
const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
const ts = require(typescriptRequire);
const [major, minor] = ts.version.split(".").map(Number);
const nodeNext = major > 4 || (major === 4 && minor >= 7);
require(tsnodeRequire).register({
  compiler: typescriptRequire,
  transpileOnly: process.env.PULUMI_NODEJS_TRANSPILE_ONLY === "true",
  project: "tsconfig.json",
  skipProject: false,
  compilerOptions: {
    target: "ES2020",
    module: nodeNext ? "nodenext" : "commonjs",
    moduleResolution: nodeNext ? "nodenext" : "node",
    sourceMap: "true",
    ...tsutils.loadTypeScriptCompilerOptions("tsconfig.json"),
  },
});
const registeredTsNode = t();
pulumi.runtime.setMocks({
  newResource: (args) => {
    console.log(JSON.stringify({ loadedPulumi, registeredTsNode, loadedProgram, registered: t() }));
    return { id: args.name, state: args.inputs };
  },
  call: (args) => args.inputs,
});
const before = t();
require("./index.ts");
const loadedProgram = t() - before;
`;

/** require("pulumi-frontdoor") after @pulumi/pulumi, compiled JavaScript only: the package's own load. */
const REQUIRE_ONLY = `require("@pulumi/pulumi");
const start = performance.now();
require("pulumi-frontdoor");
console.log(JSON.stringify({ requireMs: performance.now() - start }));
`;

interface Sample {
  loadedPulumi: number;
  registeredTsNode: number;
  loadedProgram: number;
  registered: number;
}

async function sample(program: string, transpileOnly: boolean): Promise<Sample> {
  const { stdout } = await run(process.execPath, ["start.js"], {
    cwd: path.join(WORK, program),
    env: { ...process.env, PULUMI_NODEJS_TRANSPILE_ONLY: String(transpileOnly) },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) as string);
}

function setUp(): void {
  if (process.env.BENCH_PACKAGE) {
    // Found before the checkout's node_modules; its own dependencies still resolve there.
    const target = path.join(WORK, "node_modules", "pulumi-frontdoor");
    fs.cpSync(path.resolve(process.env.BENCH_PACKAGE), target, { recursive: true });
  }
  for (const [name, text] of Object.entries(PROGRAMS)) {
    const dir = path.join(WORK, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "index.ts"), text);
    fs.writeFileSync(path.join(dir, "tsconfig.json"), templateTsconfig());
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name, private: true, main: "index.ts" }),
    );
    fs.writeFileSync(path.join(dir, "start.js"), CHILD);
    fs.writeFileSync(path.join(dir, "require.js"), REQUIRE_ONLY);
  }
}

async function main(): Promise<void> {
  // The installed copy (npm run build puts a real copy in node_modules), as a user's project has it.
  if (!fs.existsSync(path.join(ROOT, "node_modules", "pulumi-frontdoor", "bin", "sdk", "index.js")))
    throw new Error("node_modules/pulumi-frontdoor is missing: run `npm run build` first");
  setUp();
  try {
    const samples: Record<string, Sample[]> = {};
    const requireMs: number[] = [];
    const names = Object.keys(PROGRAMS);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...names].reverse() : names;
      for (const transpileOnly of [false, true]) {
        for (const name of order) {
          const key = `${name}:${transpileOnly ? "transpile-only" : "type-check"}`;
          samples[key] = [...(samples[key] ?? []), await sample(name, transpileOnly)];
        }
      }
      const { stdout } = await run(process.execPath, ["require.js"], { cwd: path.join(WORK, "frontdoor") });
      requireMs.push(JSON.parse(stdout).requireMs);
      process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
    }
    const med = (key: string, field: keyof Sample) => median(samples[key].map((s) => s[field]));
    const rows = [];
    for (const mode of ["type-check", "transpile-only"]) {
      rows.push(
        row(
          `program start to registration, ts-node ${mode}: frontdoor vs do-nothing provider`,
          med(`frontdoor:${mode}`, "registered"),
          med(`do-nothing:${mode}`, "registered"),
          1.1,
        ),
        row(
          `program module load (require of index.ts), ts-node ${mode}`,
          med(`frontdoor:${mode}`, "loadedProgram"),
          med(`do-nothing:${mode}`, "loadedProgram"),
          undefined,
        ),
      );
    }
    rows.push(
      row(
        "require('pulumi-frontdoor') after @pulumi/pulumi (compiled JS)",
        median(requireMs),
        undefined,
        undefined,
      ),
    );
    const pulumiLoad = median(Object.values(samples).flatMap((list) => list.map((s) => s.loadedPulumi)));
    rows.push(row("@pulumi/pulumi load (common to both, for scale)", pulumiLoad, undefined, undefined));
    console.log(`\nProgram start, ${ROUNDS} interleaved rounds, medians (${machine()})\n`);
    console.log(table(rows));
  } finally {
    fs.rmSync(WORK, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
