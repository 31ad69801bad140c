// The SDK's names follow Pulumi's conventions, as in every generated Pulumi SDK: a function `getX` has
// `getXOutput` (Inputs in, an Output out), its arguments type `GetXArgs` and its result type
// `GetXResult`; every resource class has the static `get(name, id, opts)` and `isInstance(obj)`. The
// names used before (`TopTalkersArgs`, the shared `LookupArgs` and `ListArgs`) still compile, as
// aliases marked `@deprecated` (editors strike them through). Read from the SDK's own declarations with
// the TypeScript compiler, so a name missing, or a deprecation mark lost, fails here.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import * as ts from "typescript";
import { functionDefinitions } from "../provider/functions";
import { resourceDefinitions } from "../provider/resources/all";
import type * as frontdoor from "../sdk";
import { REPO_ROOT } from "./peers";

/** Each assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only when every entry is true (checked by `npm run typecheck`). */
function allTrue<_T extends { [key: string]: true }>(): void {}

/** The old names are the new types, not copies that could drift apart. */
type AliasesMatch = {
  topTalkersArgs: Same<frontdoor.TopTalkersArgs, frontdoor.GetTopTalkersArgs>;
  topTalkersResult: Same<frontdoor.TopTalkersResult, frontdoor.GetTopTalkersResult>;
  lookupArgs: Same<frontdoor.LookupArgs, frontdoor.GetIdentityArgs>;
  lookupArgsCa: Same<frontdoor.LookupArgs, frontdoor.GetCaArgs>;
  listArgs: Same<frontdoor.ListArgs, frontdoor.GetCasArgs>;
};

/** A program written against the old names still compiles (type-checked, never run). */
function programWithOldNames(sdk: typeof frontdoor): unknown {
  const args: frontdoor.TopTalkersArgs = { from: "now-1h", size: 5 };
  const found: frontdoor.LookupArgs = { name: "alice" };
  const all: frontdoor.ListArgs = { filter: 'name contains "prod"' };
  const talkers: Promise<frontdoor.TopTalkersResult> = sdk.getTopTalkers(args);
  return [sdk.getIdentityOutput(found), sdk.getCasOutput(all), talkers];
}

/** The same program with the new names, and the static members of a resource class. */
function programWithNewNames(sdk: typeof frontdoor): unknown {
  const args: frontdoor.GetTopTalkersArgs = { from: "now-1h", size: 5 };
  const found: frontdoor.GetIdentityArgs = { name: "alice" };
  const all: frontdoor.GetCasArgs = { filter: 'name contains "prod"' };
  const talkers: Promise<frontdoor.GetTopTalkersResult> = sdk.getTopTalkers(args);
  const ca: Promise<frontdoor.GetCaResult> = sdk.getCa({ id: "x" });
  const existing: frontdoor.Identity = sdk.Identity.get("existing", "a1b2c3");
  const other: unknown = existing;
  const jwt = sdk.Identity.isInstance(other) ? other.enrollmentJwt : undefined;
  return [sdk.getIdentityOutput(found), sdk.getCasOutput(all), talkers, ca, jwt];
}

const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);
const DEPRECATED = ["TopTalkersArgs", "TopTalkersResult", "LookupArgs", "ListArgs"];

describe("the SDK's names follow Pulumi's conventions", () => {
  // The SDK's exports as the compiler sees them, with each one's @deprecated mark.
  let exported: Map<string, { deprecated: boolean }>;
  before(function () {
    this.timeout(120_000);
    const index = path.join(REPO_ROOT, "sdk", "index.ts");
    const program = ts.createProgram([index], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
    });
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(program.getSourceFile(index)!)!;
    exported = new Map(
      checker.getExportsOfModule(module).map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        const tags = [...symbol.getJsDocTags(checker), ...target.getJsDocTags(checker)];
        return [symbol.name, { deprecated: tags.some((t) => t.name === "deprecated") }];
      }),
    );
  });

  it("every function: getX, getXOutput (but enrollIdentity, single-use), GetXArgs and GetXResult, none deprecated", () => {
    allTrue<AliasesMatch>();
    // Both programs are type-checked by `npm run typecheck`; they are never run (no engine here).
    assert.equal(typeof programWithOldNames, "function");
    assert.equal(typeof programWithNewNames, "function");
    const missing: string[] = [];
    for (const fn of functionDefinitions) {
      const names = [fn.name, `${pascal(fn.name)}Args`, `${pascal(fn.name)}Result`];
      if (fn.name !== "enrollIdentity") names.push(`${fn.name}Output`);
      for (const name of names) {
        const found = exported.get(name);
        if (!found) missing.push(name);
        else assert.equal(found.deprecated, false, `${name} is marked deprecated`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it("the old names are still exported, each marked @deprecated", () => {
    for (const name of DEPRECATED) {
      assert.ok(exported.has(name), `${name} is no longer exported: programs using it would break`);
      assert.equal(exported.get(name)!.deprecated, true, `${name} is not marked @deprecated`);
    }
    const marked = [...exported].filter(([, e]) => e.deprecated).map(([name]) => name);
    assert.deepEqual(marked.sort(), [...DEPRECATED].sort(), "only the old names are deprecated");
  });

  it("every resource class has the static get and isInstance", () => {
    const sdk = require("../sdk") as Record<string, { get?: unknown; isInstance?: unknown }>;
    for (const def of resourceDefinitions) {
      assert.equal(typeof sdk[def.kind]?.get, "function", `${def.kind}.get`);
      assert.equal(typeof sdk[def.kind]?.isInstance, "function", `${def.kind}.isInstance`);
      // Not an object of another kind, nor a look-alike without the resource type.
      assert.equal((sdk[def.kind].isInstance as (o: unknown) => boolean)({}), false, def.kind);
    }
    const isIdentity = sdk.Identity.isInstance as (o: unknown) => boolean;
    assert.equal(isIdentity({ __pulumiType: "pulumi-nodejs:dynamic/frontdoor:Identity" }), true);
    assert.equal(isIdentity({ __pulumiType: "pulumi-nodejs:dynamic/frontdoor:Ca" }), false);
  });
});
