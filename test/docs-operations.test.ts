// docs/guides/operations.md: the edge management API's operations that are not configuration. Each
// endpoint the page names must be an operation of the contract (test/contracts/, the OpenZiti swagger),
// and no part of the provider that talks to the APIs may build a request path for one of them: the page
// says the provider leaves them to operators.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..");
const PAGE = path.join(root, "docs", "guides", "operations.md");
const CONTRACT = JSON.parse(
  fs.readFileSync(path.join(root, "test", "contracts", "openziti-edge-management.json"), "utf8"),
) as { paths: Record<string, Record<string, unknown>> };
/** Where the provider builds request paths (the tools only read the state and the CLI's output). */
const REQUEST_DIRS = ["resources", "http", "functions", "audit"].map((d) => path.join(root, "provider", d));

/** `METHOD /path` code spans of the page's table rows. */
function endpoints(): { method: string; path: string }[] {
  const rows = fs
    .readFileSync(PAGE, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| Operation"));
  const found: { method: string; path: string }[] = [];
  let last = "";
  for (const row of rows)
    for (const [, method, rest] of row.matchAll(/`(GET|POST|PUT|PATCH|DELETE) ([^`]+)`/g)) {
      // `.../extend-verify` continues the path before it.
      const full = rest.startsWith(".../") ? last.replace(/\/[^/]+$/, `/${rest.slice(4)}`) : rest;
      found.push({ method, path: full });
      last = full;
    }
  return found;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    return e.isDirectory() ? sources(file) : file.endsWith(".ts") ? [file] : [];
  });
}

/** The string literals of a source, its comments removed first. */
function literals(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(/(["'`])((?:\\.|(?!\1)[^\\])*)\1/g)].map((m) => m[2]);
}

describe("docs: operations that are not configuration (docs/guides/operations.md)", () => {
  const listed = endpoints();

  it("names each endpoint as an operation of the edge management contract", () => {
    assert.ok(listed.length >= 10, `only ${listed.length} endpoints found on the page`);
    for (const { method, path: p } of listed) {
      const ops = CONTRACT.paths[p];
      assert.ok(ops, `${p} is no path of the contract`);
      assert.ok(method.toLowerCase() in ops, `${method} ${p} is no operation of the contract`);
    }
  });

  it("the provider builds no request path for any of them", () => {
    // The path's segments after the collection, as a resource module would pass them.
    const segments = new Set(
      listed.flatMap(({ path: p }) => {
        const parts = p.split("/").filter((s) => s && !s.startsWith("{"));
        return parts.length > 1 ? parts.slice(1) : parts;
      }),
    );
    segments.delete("authenticators"); // a collection the provider reads, not an operation
    const offending: string[] = [];
    for (const dir of REQUEST_DIRS)
      for (const file of sources(dir))
        for (const literal of literals(fs.readFileSync(file, "utf8")))
          for (const segment of segments)
            if (literal === segment || literal.includes(`/${segment}`) || literal.startsWith(`${segment}/`))
              offending.push(`${path.relative(root, file)}: "${literal}" (${segment})`);
    // The MFA login is the provider's own: POST /authenticate/mfa, not an identity's MFA removal.
    assert.deepEqual(
      offending.filter((o) => !o.includes('"/authenticate/mfa"')),
      [],
    );
  });
});
