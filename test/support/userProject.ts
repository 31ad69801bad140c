// The package as a user gets it: `npm pack` of this repository, then a new project in a temp dir with the
// tarball and its own @pulumi/pulumi installed from the registry (the local npm cache first, so it works
// offline once the cache holds them). Shared by the suites that test the package from a user's side.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../peers";
import { npmInstall } from "./npmRetry";

const run = promisify(execFile);
const BIG = 64 * 1024 * 1024;

/**
 * The @pulumi/pulumi a user project gets: the repository's pinned one, or FRONTDOOR_PULUMI_VERSION
 * (the Node version matrix runs the user-facing suites with the newest).
 */
export const USER_PULUMI_VERSION: string =
  process.env.FRONTDOOR_PULUMI_VERSION ?? devDependencyVersion("@pulumi/pulumi");

/** The exact version this repository pins for a dev dependency (users' projects get the same). */
export function devDependencyVersion(name: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  const version = manifest.devDependencies?.[name];
  if (!version) throw new Error(`package.json pins no devDependency ${name}`);
  return version;
}

/** The compiler options of Pulumi's `typescript` template (pulumi/templates typescript/tsconfig.json). */
export const TEMPLATE_COMPILER_OPTIONS = {
  strict: true,
  outDir: "bin",
  target: "es2020",
  module: "commonjs",
  moduleResolution: "node",
  sourceMap: true,
  experimentalDecorators: true,
  pretty: true,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
};

/** The template's tsconfig.json (its compiler options, `files: ["index.ts"]`), as text. */
export function templateTsconfig(
  compilerOptions: Record<string, unknown> = TEMPLATE_COMPILER_OPTIONS,
): string {
  return JSON.stringify({ compilerOptions, files: ["index.ts"] }, null, 2);
}

export interface PackedPackage {
  /** Absolute path of the tarball. */
  tarball: string;
  /** The paths inside the tarball (relative to the package root). */
  files: string[];
}

let packed: Promise<PackedPackage> | undefined;

/**
 * `npm pack` of the repository into `destination` (prepack compiles it first). Packed once per test
 * process: later suites get a copy of the same tarball (the sources do not change during a run).
 */
export async function packPackage(destination: string): Promise<PackedPackage> {
  packed ??= npmPack(fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-packed-")));
  const first = await packed;
  const tarball = path.join(destination, path.basename(first.tarball));
  if (tarball !== first.tarball) fs.copyFileSync(first.tarball, tarball);
  return { tarball, files: first.files };
}

async function npmPack(destination: string): Promise<PackedPackage> {
  process.once("exit", () => fs.rmSync(destination, { recursive: true, force: true }));
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", destination], {
    cwd: REPO_ROOT,
    maxBuffer: BIG,
  });
  // prepack's compiler output may precede the JSON.
  const result = JSON.parse(stdout.slice(stdout.indexOf("[")))[0];
  return {
    tarball: path.join(destination, result.filename),
    files: result.files.map((f: { path: string }) => f.path),
  };
}

export interface UserProjectOptions {
  /** Files to write, by path relative to the project (e.g. `index.ts`, `tsconfig.json`). */
  files: Record<string, string>;
  /** package.json fields besides name and private (e.g. `main`). */
  manifest?: Record<string, unknown>;
  /** What `npm install` gets: the tarball, package specs (`@pulumi/pulumi@3.248.0`). */
  install: string[];
}

/** A new Pulumi project at `dir`: Pulumi.yaml, package.json, the files, and its dependencies installed. */
export async function createUserProject(dir: string, options: UserProjectOptions): Promise<void> {
  const name = path.basename(dir);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name, private: true, ...options.manifest }, null, 2),
  );
  for (const [file, text] of Object.entries(options.files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  await npmInstall(["install", "--no-audit", "--no-fund", ...options.install], { cwd: dir });
}
