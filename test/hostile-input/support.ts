// Hostile input for the generators: a seeded generator of strings that break naive code
// generation, and the three places generated text is run to see what it does:
// - programs: compiled with the project's `tsc` against stub `@pulumi/pulumi` and `pulumi-frontdoor`
//   modules in a temp dir (any-typed, so only syntax, identifiers and declarations are checked), then
//   run by node, every resource constructor call recorded (kind, name, args, options);
// - shell lines: run by `bash` with `terraform` and `pulumi` on PATH as stubs that record their argv;
// - Go: `gofmt -e` (the parser) from /usr/local/go.
// A sentinel file is what an injection would write; the tests assert it never exists.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { resourceDefinitions } from "../../provider/resources/all";
import { tempDir } from "../support/fixtures";

/** One directory per test file run: the stubs, the sentinel path, the programs. */
export function workspace() {
  const dir = tempDir("hostile-");
  // The programs' own package scope: `require("pulumi-frontdoor")` resolves through the stubs here,
  // never through a package.json that happens to sit above the temp folder (Node's self-reference).
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "hostile-programs", private: true }),
  );
  return { dir, sentinel: path.join(dir, "sentinel-injected") };
}

/**
 * Pieces of hostile strings: quotes of every language here, template and shell substitutions, comment
 * ends, every line terminator, NUL, ANSI escapes, prototype names, `--`, a lone surrogate, a BOM, and
 * payloads that write the sentinel if they ever run as code (`S` is replaced by its path).
 */
function pieces(sentinel: string): string[] {
  const js = JSON.stringify(sentinel);
  return [
    '"',
    "'",
    "`",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: hostile text, on purpose
    "${globalThis.process.exit(3)}",
    `x" }); require("fs").writeFileSync(${js}, "js"); ({ a: "`,
    `\`); require("fs").writeFileSync(${js}, "tpl"); (\``,
    `*/ require("fs").writeFileSync(${js}, "block"); /*`,
    `\nrequire("fs").writeFileSync(${js}, "lf");\n`,
    `\rrequire("fs").writeFileSync(${js}, "cr");//`,
    `\u2028require("fs").writeFileSync(${js}, "ls");//`,
    `\u2029require("fs").writeFileSync(${js}, "ps");//`,
    `x'$(touch ${sentinel})'`,
    `$(touch ${sentinel})`,
    `\`touch ${sentinel}\``,
    `'; touch ${sentinel}; echo '`,
    "o'brien",
    "\0",
    "\x1b[31mred\x1b[0m",
    "\x1b]0;title\x07",
    "\r\n",
    "\t",
    "\\",
    "\\u2028",
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "--",
    "legacy--web",
    "4Gz_gkQ",
    "serviceIds",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: hostile text, on purpose
    "${x}",
    "%{ if 1 }",
    "$HOME",
    "\ud800",
    "\ufeff",
    "é😀",
    "delete",
    "config",
  ];
}

/** A seeded pseudo-random generator (mulberry32): the same seed, the same cases. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` hostile strings: each piece alone first, then seeded mixes of 2 to 5, and one very long. */
export function hostileStrings(sentinel: string, seed: number, count: number): string[] {
  const all = pieces(sentinel);
  const random = seeded(seed);
  const out = [...all];
  while (out.length < count - 1) {
    const n = 2 + Math.floor(random() * 4);
    let s = "";
    for (let i = 0; i < n; i++) s += all[Math.floor(random() * all.length)];
    out.push(s);
  }
  out.push(`${all.join("")}${"x'\"\n".repeat(5000)}`);
  return out.slice(0, Math.max(count, all.length));
}

/** A value nested `depth` levels deep (objects), built without recursion. */
export function deep(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: "x" };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

export interface Recorded {
  kind: string;
  name: string;
  args: Record<string, unknown>;
  opts: { import?: string };
}

/** What `requireSecret(key)` answers in the stub: a marker naming the key (no value ever is in the program). */
export interface SecretMarker {
  __secret: string;
  json: boolean;
}

const STUB_PULUMI = `"use strict";
exports.__esModule = true;
class Config {
  requireSecret(key) { return { __secret: key, json: false }; }
  requireSecretObject(key) { return { __secret: key, json: true }; }
}
exports.Config = Config;
exports.interpolate = (strings, ...values) => strings.reduce((out, s, i) => out + s + (i < values.length ? values[i] : ""), "");
`;

const STUB_PULUMI_TYPES = `export declare class Config {
  constructor(name?: string);
  requireSecret(key: string): any;
  requireSecretObject(key: string): any;
}
export declare function interpolate(strings: TemplateStringsArray, ...values: any[]): any;
`;

/** The stub SDK: one class per kind, recording its calls; `id` is the import id (a Frontdoor one without its frontdoor). */
function stubSdk(): { js: string; types: string } {
  const kinds = resourceDefinitions.map((d) => d.kind);
  const frontdoor = resourceDefinitions.filter((d) => d.api === "frontdoor").map((d) => d.kind);
  const js = [
    '"use strict";',
    "exports.__esModule = true;",
    `const FRONTDOOR = new Set(${JSON.stringify(frontdoor)});`,
    "const make = (kind) => class {",
    "  constructor(name, args, opts) {",
    "    globalThis.__hostile.records.push({ kind, name, args, opts });",
    "    const id = String(opts && opts.import);",
    "    const prefix = globalThis.__hostile.frontdoorId + '/';",
    "    this.id = FRONTDOOR.has(kind) && id.startsWith(prefix) ? id.slice(prefix.length) : id;",
    "  }",
    "};",
    ...kinds.map((k) => `exports.${k} = make(${JSON.stringify(k)});`),
  ].join("\n");
  const types = kinds.map((k) => `export declare const ${k}: any;`).join("\n");
  return { js, types };
}

function writeModule(dir: string, name: string, js: string, types: string): void {
  const root = path.join(dir, "node_modules", name);
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(
    path.join(root, "package.json"),
    JSON.stringify({ name, main: "index.js", types: "index.d.ts" }),
  );
  fs.writeFileSync(path.join(root, "index.js"), js);
  fs.writeFileSync(path.join(root, "index.d.ts"), types);
}

/**
 * Compiles every program (one `tsc` run for all) and runs each in one node process against the stubs.
 * Fails the test with tsc's messages if a program does not compile. Returns each program's calls, or
 * the error it threw.
 */
export function runPrograms(
  dir: string,
  programs: Record<string, string>,
  frontdoorId = "fd-hostile",
): Record<string, { records?: Recorded[]; error?: string }> {
  const work = fs.mkdtempSync(path.join(dir, "programs-"));
  writeModule(work, "@pulumi/pulumi", STUB_PULUMI, STUB_PULUMI_TYPES);
  const sdk = stubSdk();
  writeModule(work, "pulumi-frontdoor", sdk.js, sdk.types);
  fs.mkdirSync(path.join(work, "src"));
  const names = Object.keys(programs);
  for (const [i, name] of names.entries())
    fs.writeFileSync(path.join(work, "src", `p${i}.ts`), programs[name]);
  fs.writeFileSync(
    path.join(work, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "commonjs",
        moduleResolution: "node",
        strict: true,
        esModuleInterop: true,
        skipLibCheck: true,
        types: [],
        rootDir: "src",
        outDir: "out",
      },
      include: ["src"],
    }),
  );
  const tsc = require.resolve("typescript/bin/tsc");
  const compiled = spawnSync(process.execPath, [tsc, "-p", work], { encoding: "utf8" });
  const failed = (compiled.stdout + compiled.stderr).replace(
    /src\/p(\d+)\.ts/g,
    (_m, i) => `[${names[Number(i)]}]`,
  );
  assert.equal(compiled.status, 0, `a generated program does not compile:\n${failed.slice(0, 4000)}`);
  const runner = path.join(work, "run.js");
  fs.writeFileSync(
    runner,
    [
      '"use strict";',
      "const results = {};",
      `const names = ${JSON.stringify(names)};`,
      "names.forEach((name, i) => {",
      `  globalThis.__hostile = { records: [], frontdoorId: ${JSON.stringify(frontdoorId)} };`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the runner's own template
      "  try { require(`./out/p${i}.js`); results[name] = { records: globalThis.__hostile.records }; }",
      "  catch (err) { results[name] = { error: String(err && err.stack) }; }",
      "});",
      'require("fs").writeFileSync(require("path").join(__dirname, "results.json"), JSON.stringify(results));',
    ].join("\n"),
  );
  const ran = spawnSync(process.execPath, [runner], { encoding: "utf8", cwd: work });
  assert.equal(ran.status, 0, `the programs' run failed: ${ran.stdout}${ran.stderr}`);
  return JSON.parse(fs.readFileSync(path.join(work, "results.json"), "utf8"));
}

/**
 * Runs `script` with bash, `terraform` and `pulumi` on PATH as stubs that record their argv. A stub is
 * a bash script (a node one costs a process start per line): it appends its name, its argument count
 * and each argument, NUL-terminated (no argument can hold a NUL), read back here. Returns the calls,
 * the command's name first.
 */
export function runShell(dir: string, script: string): string[][] {
  const work = fs.mkdtempSync(path.join(dir, "shell-"));
  const bin = path.join(work, "bin");
  const log = path.join(work, "calls");
  fs.mkdirSync(bin);
  for (const command of ["terraform", "pulumi"]) {
    const stub = path.join(bin, command);
    fs.writeFileSync(stub, `#!/bin/bash\nprintf '%s\\0' ${command} "$#" "$@" >> '${log}'\n`);
    fs.chmodSync(stub, 0o755);
  }
  const file = path.join(work, "lines.sh");
  fs.writeFileSync(file, script);
  const ran = spawnSync("bash", [file], {
    encoding: "utf8",
    cwd: work,
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
  });
  assert.equal(ran.status, 0, `bash failed: ${ran.stderr}`);
  if (!fs.existsSync(log)) return [];
  const fields = fs.readFileSync(log, "utf8").split("\0");
  const calls: string[][] = [];
  for (let i = 0; i + 1 < fields.length; ) {
    const count = Number(fields[i + 1]);
    calls.push([fields[i], ...fields.slice(i + 2, i + 2 + count)]);
    i += 2 + count;
  }
  return calls;
}

/** The CLI as a user runs it (the built package: `npm run build`). */
export function importCli(...args: string[]) {
  const cli = path.join(__dirname, "..", "..", "bin", "provider", "tools", "importCli.js");
  return spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
}

/** The lines the CLI prints after `header` on stderr: the commands for the user to run. */
export function commandsAfter(stderr: string, header: RegExp): string {
  const at = stderr.search(header);
  assert.ok(at >= 0, `no ${header} in:\n${stderr.slice(0, 2000)}`);
  return stderr.slice(stderr.indexOf("\n", at) + 1);
}

/**
 * The recorded args with each secret marker replaced by the value at its place in `expected` (the
 * caller checks the places); the markers found, by path.
 */
export function withSecrets(
  args: unknown,
  expected: unknown,
  at = "",
  found: { path: string; marker: SecretMarker }[] = [],
): { value: unknown; found: typeof found } {
  const isMarker = (v: unknown): v is SecretMarker =>
    typeof v === "object" && v !== null && typeof (v as SecretMarker).__secret === "string";
  if (isMarker(args)) {
    found.push({ path: at, marker: args });
    return { value: expected, found };
  }
  if (Array.isArray(args))
    return {
      value: args.map((v, i) => withSecrets(v, (expected as unknown[])?.[i], at, found).value),
      found,
    };
  if (typeof args === "object" && args !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(args)) {
      const e =
        typeof expected === "object" && expected !== null && Object.hasOwn(expected, k)
          ? (expected as any)[k]
          : undefined;
      Object.defineProperty(out, k, {
        value: withSecrets((args as any)[k], e, at ? `${at}.${k}` : k, found).value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return { value: out, found };
  }
  return { value: args, found };
}

/** `gofmt -e` of a Go file: its parse errors ("" when it parses). */
export function gofmtErrors(dir: string, source: string): string {
  const file = path.join(fs.mkdtempSync(path.join(dir, "go-")), "main.go");
  fs.writeFileSync(file, source);
  const ran = spawnSync("/usr/local/go/bin/gofmt", ["-e", "-l", file], { encoding: "utf8" });
  return ran.status === 0 ? "" : ran.stderr || `gofmt exited ${ran.status}`;
}

/** The provider address of the OpenZiti Terraform provider in a state file. */
export const ZITI = 'provider["registry.terraform.io/netfoundry/ziti"]';
