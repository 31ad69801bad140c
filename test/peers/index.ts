// The real peers (built by `npm run peers` into .peers/bin): where they are, and how a suite that
// needs them skips, loudly, on a machine without them, or fails when FRONTDOOR_REQUIRE_PEERS=1 (CI).
import * as fs from "node:fs";
import * as path from "node:path";
import { skipBecause } from "../support/skip";

export const REPO_ROOT = path.resolve(__dirname, "..", "..");
export const PEERS_BIN = path.join(REPO_ROOT, ".peers", "bin");
/** pulumi-language-nodejs-programgen under the names the CLI runs (pulumi-language-nodejs, -go): first on PATH for `pulumi import --out`. */
export const PROGRAMGEN_BIN = path.join(REPO_ROOT, ".peers", "programgen");
export const PEERS_REQUIRED = process.env.FRONTDOOR_REQUIRE_PEERS === "1";

export type PeerName =
  | "ziti"
  | "ziti-v1.5.0"
  | "pulumi"
  | "pulumi-language-nodejs"
  | "pulumi-resource-pulumi-nodejs"
  | "pulumi-language-yaml"
  | "pulumi-language-go"
  | "pulumi-frontdoor-sdkgen"
  | "pulumi-language-nodejs-programgen"
  | "actionlint"
  | "qemu-aarch64";

/** The controller releases the real-controller suites run against, newest first. */
export const CONTROLLER_RELEASES = [
  { release: "v1.6.0", peer: "ziti" },
  { release: "v1.5.0", peer: "ziti-v1.5.0" },
] as const satisfies readonly { release: string; peer: PeerName }[];
export type ControllerRelease = (typeof CONTROLLER_RELEASES)[number]["release"];

/**
 * The release a suite's controller runs when it does not ask for one: FRONTDOOR_ZITI_RELEASE (CI runs
 * the real-controller suites once per release), else v1.6.0.
 */
export function defaultRelease(): ControllerRelease {
  const wanted = process.env.FRONTDOOR_ZITI_RELEASE ?? "v1.6.0";
  const known = CONTROLLER_RELEASES.find((r) => r.release === wanted);
  if (!known)
    throw new Error(
      `FRONTDOOR_ZITI_RELEASE=${wanted}: not one of ${CONTROLLER_RELEASES.map((r) => r.release).join(", ")}`,
    );
  return known.release;
}

/** The peer that runs a controller release. */
export function controllerPeer(release: ControllerRelease): PeerName {
  return CONTROLLER_RELEASES.find((r) => r.release === release)?.peer ?? "ziti";
}

/** The path of a built peer, or undefined. */
export function peerPath(name: PeerName): string | undefined {
  const file = path.join(PEERS_BIN, name);
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}

/**
 * Call from a suite's `before`: returns when every named peer is built; otherwise prints why the
 * suite does not run and skips it, or throws when peers are required.
 */
export function requirePeers(ctx: Mocha.Context, ...names: PeerName[]): void {
  const missing = names.filter((name) => !peerPath(name));
  if (missing.length === 0) return;
  skipBecause(
    ctx,
    `${missing.join(", ")} not built in ${PEERS_BIN} (run \`npm run peers\`; it needs Go 1.26)`,
  );
}
