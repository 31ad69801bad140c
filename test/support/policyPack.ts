// The policy pack (policy/) for tests that run it through the real CLI: its own node_modules
// (@pulumi/policy and @pulumi/pulumi, from its lockfile) installed once, and its rules built
// (bin/provider/policy, by `npm run build`), as a user's checkout or installed package has them.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../peers/index";
import { npmInstallSync } from "./npmRetry";

export const POLICY_PACK = path.join(REPO_ROOT, "policy");

/** `npm ci` in policy/ unless its node_modules is already installed from the current lockfile. */
export function installPolicyPack(): void {
  if (!fs.existsSync(path.join(REPO_ROOT, "bin", "provider", "policy", "index.js")))
    throw new Error("bin/provider/policy is not built: run `npm run build`");
  const lock = path.join(POLICY_PACK, "package-lock.json");
  const installed = path.join(POLICY_PACK, "node_modules", ".package-lock.json");
  if (fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  npmInstallSync(["ci", "--no-audit", "--no-fund"], { cwd: POLICY_PACK });
}

/**
 * `<dir>/bin` with a `pulumi-language-nodejs` to put first on PATH: the peers' Node.js host, plus the
 * RunPlugin call that runs policy packs, which that host predates (see test/support/policyLanguageHost.js).
 */
export function policyHostBin(dir: string): string {
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin, { recursive: true });
  const host = path.join(__dirname, "policyLanguageHost.js");
  fs.writeFileSync(
    path.join(bin, "pulumi-language-nodejs"),
    `#!/bin/sh\nexec "${process.execPath}" "${host}" "$@"\n`,
    {
      mode: 0o755,
    },
  );
  return bin;
}
