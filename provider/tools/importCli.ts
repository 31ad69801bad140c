#!/usr/bin/env node
// `npx pulumi-frontdoor-import [--frontdoor-id ID] [--kind KIND ...] [--name PATTERN ...]
// [--exclude-state FILE ...] [--import-file FILE]`: prints a Pulumi program (TypeScript, dynamic
// provider) that adopts the existing objects (see importSnippets.ts), or, with --import-file, writes
// Pulumi's import file for the provider plugin instead: `pulumi import --file FILE` then writes the
// program in the project's own language. Connection settings come from the same environment variables
// the provider reads (FRONTDOOR_API_URL, FRONTDOOR_TOKEN, ZITI_EDGE_URL, ...).
// `--from-state STATE --import-file FILE`: the import file for the objects of a dynamic-provider
// stack (`pulumi stack export` output), to move it to the plugin (see migrate.ts); no API is called.
// `--from-terraform terraform.tfstate [--import-file FILE]`: the objects of the OpenZiti Terraform
// provider in a Terraform/OpenTofu state (see terraform.ts): the import file for the plugin, or without
// --import-file the TypeScript program (dynamic provider) that adopts them; what could not be mapped is
// listed on stderr, with the reason. No API is called.
// Everything printed from the data (ids, addresses, URNs, reasons) goes through codeText.ts: shell
// lines are single-quoted words, other lines show control characters as escapes.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { context } from "../engine";
import { printable, shellWord } from "./codeText";
import { idsInState, importFile, importProgram, type Program, type SnippetOptions } from "./importSnippets";
import { migrationFromState } from "./migrate";
import { MAX_FILE_BYTES } from "./stateInput";
import {
  describe,
  migrationFromTerraform,
  terraformImportFile,
  terraformProgramWithSecrets,
} from "./terraform";

const USAGE =
  "use --frontdoor-id ID, --kind KIND, --name PATTERN, --exclude-state FILE, --import-file FILE, --from-state FILE, --from-terraform FILE";

interface CliOptions extends SnippetOptions {
  importFile?: string;
  fromState?: string;
  fromTerraform?: string;
}

function parse(argv: string[]): CliOptions {
  const kinds: string[] = [];
  const names: string[] = [];
  const excludeIds = new Set<string>();
  let frontdoorId: string | undefined;
  let file: string | undefined;
  let fromState: string | undefined;
  let fromTerraform: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value (${USAGE})`);
    if (flag === "--kind") kinds.push(value);
    else if (flag === "--name") names.push(value);
    else if (flag === "--frontdoor-id") frontdoorId = value;
    else if (flag === "--import-file") file = value;
    else if (flag === "--from-state") fromState = value;
    else if (flag === "--from-terraform") fromTerraform = value;
    else if (flag === "--exclude-state") {
      // Objects that a stack already manages are not printed again.
      for (const id of idsInState(readJson(value, flag))) excludeIds.add(id);
    } else throw new Error(`unknown argument ${flag} (${USAGE})`);
  }
  if (fromState && !file) throw new Error(`--from-state needs --import-file FILE (${USAGE})`);
  // A state names its objects: the listing's filters would be silently ignored.
  if ((fromState || fromTerraform) && (kinds.length || names.length || excludeIds.size || frontdoorId))
    throw new Error("--from-state and --from-terraform take only --import-file");
  return {
    kinds: kinds.length ? kinds : undefined,
    names,
    frontdoorId,
    excludeIds,
    importFile: file,
    fromState,
    fromTerraform,
  };
}

function readJson(file: string, flag: string): unknown {
  try {
    const size = statSync(file).size;
    if (size > MAX_FILE_BYTES) throw new Error(`${size} bytes, more than the ${MAX_FILE_BYTES} this reads`);
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`${flag} ${file}: ${(err as Error).message}`);
  }
}

/** The package's version (the plugin's): the CLI records it on the provider of each imported entry. */
function packageVersion(): string {
  return JSON.parse(readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8")).version;
}

/** A line for the terminal: control characters (ANSI escapes, CR) shown as escapes, never sent raw. */
function say(line: string): void {
  process.stderr.write(`${printable(line)}\n`);
}

/** A command line for the user to run, its words single-quoted: exactly these arguments reach the command. */
function command(indent: string, words: string, ...args: string[]): void {
  try {
    process.stderr.write(`${indent}${words} ${args.map(shellWord).join(" ")}\n`);
  } catch (err) {
    say(`${indent}# not printed: ${(err as Error).message}`); // a comment, should the lines be pasted
  }
}

/** The program on stdout, and on stderr the secret config keys it reads, each to set before `up`. */
function printProgram(printed: Program): void {
  process.stdout.write(printed.text);
  if (!printed.secrets.length) return;
  say(
    "set the secret config keys the program reads (a JSON value for those marked JSON) before `pulumi up`:",
  );
  for (const { key, json } of printed.secrets) {
    command("  ", "pulumi config set --secret", key);
    if (json) say("    (JSON: the value as JSON text; the program reads it with requireSecretObject)");
  }
}

function fromTerraform(options: CliOptions & { fromTerraform: string }): void {
  const migration = migrationFromTerraform(readJson(options.fromTerraform, "--from-terraform"));
  for (const entry of migration.notMapped) say(describe(entry));
  if (!options.importFile) {
    printProgram(terraformProgramWithSecrets(migration));
    return;
  }
  const file = terraformImportFile(migration, packageVersion());
  writeFileSync(options.importFile, `${JSON.stringify(file, null, 2)}\n`);
  process.stderr.write(
    `${options.importFile}: ${file.resources.length} objects; run \`pulumi import --file ${options.importFile} --out <index.ts|main.go|program.yaml>\`, ` +
      "then remove them from the Terraform state (docs/guides/from-terraform.md):\n",
  );
  for (const o of migration.objects) command("  ", "terraform state rm", o.address);
}

async function main(argv: string[]): Promise<void> {
  const options = parse(argv);
  if (options.fromTerraform) {
    fromTerraform({ ...options, fromTerraform: options.fromTerraform });
    return;
  }
  if (!options.importFile) {
    printProgram(await importProgram(context(), options));
    return;
  }
  const version = packageVersion();
  if (options.fromState) {
    const migration = migrationFromState(readJson(options.fromState, "--from-state"), version);
    writeFileSync(options.importFile, `${JSON.stringify(migration.file, null, 2)}\n`);
    for (const { urn, reason } of migration.skipped) say(`${urn}: not in the file: ${reason}`);
    process.stderr.write(
      `${options.importFile}: ${migration.file.resources.length} objects; run \`pulumi import --file ${options.importFile}\`, ` +
        "then forget the dynamic resources (state delete, dependents first):\n",
    );
    for (const urn of migration.dynamicUrns) command("  ", "pulumi state delete --yes", urn);
    return;
  }
  const { file, unlisted } = await importFile(context(), options, version);
  writeFileSync(options.importFile, `${JSON.stringify(file, null, 2)}\n`);
  for (const { kind, reason } of unlisted) say(`${kind}: not listed. ${reason}`);
  process.stderr.write(
    `${options.importFile}: ${file.resources.length} objects; run \`pulumi import --file ${options.importFile}\`\n`,
  );
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`pulumi-frontdoor-import: ${printable(err.message)}\n`);
  process.exit(1);
});
