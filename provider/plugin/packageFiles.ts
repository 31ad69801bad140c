// The package's files the plugin serves at run time: package.json (the version it reports) and
// schema.json (GetSchema). In the repository, the npm package and the plugin tarball they sit at the
// package root (bin/provider/plugin/ -> root). A self-contained plugin binary has no package root:
// its bundler (scripts/release/plugin-binaries.js) writes both files into the code, as the constant
// FRONTDOOR_PACKAGE_FILES, the same way for every runtime the binaries are made with.
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The package root in the repository, the npm package and the plugin tarball: the nearest folder above
 * this module with schema.json and package.json. Compiled, that is three up (bin/provider/plugin/);
 * from the sources (the tests that serve the plugin in their own process, and mutation testing's
 * sandbox) it is two up. Found when first needed: a self-contained binary has none and never asks.
 */
function packageRoot(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir))
    if (["schema.json", "package.json"].every((file) => fs.existsSync(path.join(dir, file)))) return dir;
  throw new Error(`pulumi-resource-frontdoor: no schema.json and package.json above ${from}`);
}

type PackageFileName = "package.json" | "schema.json";

/** Replaced by the bundler of the plugin binaries; not defined anywhere else. */
declare const FRONTDOOR_PACKAGE_FILES: Record<PackageFileName, string> | undefined;

/** A file of the package root, or its copy embedded in a self-contained binary. */
export function packageFile(name: PackageFileName): string {
  if (typeof FRONTDOOR_PACKAGE_FILES !== "undefined") return FRONTDOOR_PACKAGE_FILES[name];
  return fs.readFileSync(path.join(packageRoot(__dirname), name), "utf8");
}
