// The languages a plugin program is written in when the CLI writes it (`pulumi import --out`), for the
// import and migration suites: one table, one test body. YAML: the YAML language host writes and runs
// it. TypeScript: the CLI asks the project's Node.js language host to write it; the v3.68 host built
// here cannot (GenerateProgram is not implemented), so pulumi-language-nodejs-programgen (Pulumi's
// v3.276.0 TypeScript generator behind that RPC, scripts/sdkgen/programgen) is first on PATH for
// `pulumi import` only; the v3.68 host runs the program, which imports the generated Node.js SDK
// (pulumi-frontdoor-native).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { PEERS_BIN, type PeerName, PROGRAMGEN_BIN, REPO_ROOT } from "../peers/index";
import { addGeneratedResources, PLUGIN_BIN } from "./plugin";

export interface PluginLanguage {
  name: "YAML" | "TypeScript";
  /** An empty program that `pulumi import` fills (test/programs). */
  emptyProgram: string;
  /** The file `pulumi import --out` writes. */
  generatedFile: string;
  /** The language hosts the CLI needs to write and to run the program. */
  peers: PeerName[];
  /** The environment of `pulumi import` (undefined: the stack's own). */
  importEnv?: NodeJS.ProcessEnv;
  /** How the written program declares a resource of a kind. */
  declares(kind: string): RegExp;
  /** How the written program marks a secret value it holds (the OIDC client secret). */
  secretMark: RegExp;
  /** Adds what the CLI wrote to the program in `dir`. */
  addGenerated(dir: string, generated: string): void;
  /** Replaces the program in `dir` (a dynamic-provider TypeScript project) by an empty plugin program. */
  emptyInPlace(dir: string, project: string): void;
}

const PROGRAMS = path.join(REPO_ROOT, "test", "programs");

/**
 * The environment of `pulumi import --out` in a TypeScript or Go project: the program generator
 * (scripts/sdkgen/programgen, under the hosts' names) first on PATH, then the plugin and the peers.
 */
export const PROGRAMGEN_ENV: NodeJS.ProcessEnv = {
  PATH: [PROGRAMGEN_BIN, PLUGIN_BIN, PEERS_BIN, process.env.PATH].join(path.delimiter),
};

/** Adds a generated TypeScript program to index.ts: its statements after the ones there, imports once. */
function addGeneratedTypeScript(dir: string, generated: string): void {
  const file = path.join(dir, "index.ts");
  const split = (text: string) => {
    const lines = text.split("\n");
    const isImport = (line: string) => line.startsWith("import ");
    return {
      imports: lines.filter(isImport),
      body: lines
        .filter((l) => !isImport(l))
        .join("\n")
        .trim(),
    };
  };
  const program = split(fs.readFileSync(file, "utf8"));
  const added = split(generated);
  assert.ok(/new frontdoor\.\w+\(/.test(added.body), `no resources generated:\n${generated}`);
  const imports = [...new Set([...program.imports, ...added.imports])];
  fs.writeFileSync(
    file,
    `${imports.join("\n")}\n\n${[program.body, added.body].filter(Boolean).join("\n\n")}\n`,
  );
}

export const PLUGIN_LANGUAGES: PluginLanguage[] = [
  {
    name: "YAML",
    emptyProgram: path.join(PROGRAMS, "yaml-empty"),
    generatedFile: "generated.yaml",
    peers: ["pulumi-language-yaml"],
    declares: (kind) => new RegExp(`type: frontdoor:(index:)?${kind}\\b`),
    secretMark: /client_secret:\s*\n\s*fn::secret:/,
    addGenerated: addGeneratedResources,
    emptyInPlace: (dir, project) => {
      for (const file of ["index.ts", "package.json"]) fs.rmSync(path.join(dir, file), { force: true });
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${project}\nruntime: yaml\n`);
    },
  },
  {
    name: "TypeScript",
    emptyProgram: path.join(PROGRAMS, "ts-empty"),
    generatedFile: "generated.ts",
    peers: ["pulumi-language-nodejs", "pulumi-language-nodejs-programgen"],
    importEnv: PROGRAMGEN_ENV,
    declares: (kind) => new RegExp(`new frontdoor\\.${kind}\\(`),
    secretMark: /client_secret: pulumi\.secret\(/,
    addGenerated: addGeneratedTypeScript,
    emptyInPlace: (dir, project) => {
      // The same project, now over the generated Node.js SDK instead of the dynamic provider's.
      fs.copyFileSync(path.join(PROGRAMS, "ts-empty", "index.ts"), path.join(dir, "index.ts"));
      const pkg = JSON.parse(fs.readFileSync(path.join(PROGRAMS, "ts-empty", "package.json"), "utf8"));
      fs.writeFileSync(
        path.join(dir, "package.json"),
        `${JSON.stringify({ ...pkg, name: project }, null, 2)}\n`,
      );
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${project}\nruntime: nodejs\n`);
    },
  },
];
