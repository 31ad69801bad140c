// node-forge (about 40 modules, ~30 ms of CPU to load) serves only the kinds and functions that make
// or read certificates and CSRs. Loaded on first use, so that it is not part of every provider host's
// start-up (a host for Services alone never needs it).
import type Forge from "node-forge";

let loaded: typeof Forge | undefined;

export function nodeForge(): typeof Forge {
  loaded ??= require("node-forge") as typeof Forge;
  return loaded;
}
