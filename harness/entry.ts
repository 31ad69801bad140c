// Which file a program folder runs, decided as the Pulumi CLI's Node.js language host decides it
// (@pulumi/pulumi cmd/run/run.ts): Pulumi.yaml's `main` when given; else package.json's `exports`
// (a string, or `"."` as a string or its default/require/import), else its `main`, each used only
// when the file exists (else the folder, with a warning); a folder is then required as a folder, so
// Node picks package.json's `main`, then index.js, then index.ts (the .ts hook is registered last).
import * as fs from "node:fs";
import * as path from "node:path";

export interface ProgramEntry {
  /** What `require` gets: a file, or a folder ending in `/` (a folder, never an adjacent .json). */
  request: string;
  /** What the language host warns about on the way (a missing entry point, index.js beside index.ts). */
  warnings: string[];
}

export function programEntry(programDir: string): ProgramEntry {
  const warnings: string[] = [];
  const main = pulumiYamlMain(programDir);
  let program = main === undefined ? programDir : path.resolve(programDir, main);
  const manifest = readManifest(programDir);
  if (manifest.type === "module")
    throw new Error(
      `${programDir}: an ES module program ("type": "module"); the harness runs CommonJS programs`,
    );
  if (main === undefined) {
    const declared = declaredEntry(manifest);
    if (declared !== undefined) {
      const file = path.join(programDir, declared);
      if (fs.existsSync(file)) program = file;
      else
        warnings.push(
          `Could not find entry point '${declared}' specified in package.json; using '${program}' instead`,
        );
    }
  }
  const isDir = fs.statSync(program).isDirectory();
  if (isDir && fs.existsSync(path.join(program, "index.js")) && fs.existsSync(path.join(program, "index.ts")))
    warnings.push(
      "Found a TypeScript project containing an index.js file and no explicit entrypoint in Pulumi.yaml - Pulumi will use index.js",
    );
  return { request: isDir && !program.endsWith("/") ? `${program}/` : program, warnings };
}

/** The entry point package.json names: `exports` first, then `main`. */
function declaredEntry(manifest: Record<string, any>): string | undefined {
  const { exports } = manifest;
  if (typeof exports === "string") return exports;
  if (exports && typeof exports === "object") {
    const dot = exports["."];
    if (typeof dot === "string") return dot;
    if (dot && typeof dot === "object") return dot.default || dot.require || dot.import;
    return undefined;
  }
  return typeof manifest.main === "string" && manifest.main ? manifest.main : undefined;
}

function readManifest(programDir: string): Record<string, any> {
  try {
    return JSON.parse(fs.readFileSync(path.join(programDir, "package.json"), "utf8"));
  } catch {
    return {};
  }
}

/** The top-level `main:` of Pulumi.yaml (a line, not a YAML document, as projectName reads `name:`). */
function pulumiYamlMain(programDir: string): string | undefined {
  const text = fs.readFileSync(path.join(programDir, "Pulumi.yaml"), "utf8");
  return /^main:\s*["']?([^"'\s#]+)/m.exec(text)?.[1];
}
