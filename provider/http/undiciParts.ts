// The two parts of undici the HTTP client uses, each loaded from its own module: a Pool (one origin's
// keep-alive connections) and the `request` API on it. undici's index loads every dispatcher, the
// mocks, the caches and fetch, and assigns the APIs onto Dispatcher.prototype: about 37 ms in a
// provider host against about 6 ms for these two (measured with @pulumi/pulumi loaded, Node 20). A
// host pays that once per command, before its first request, and the engine starts hosts per
// command. These paths are undici's own files, not its documented entry point: undici is pinned to
// an exact version (package.json), and test/undici-parts.test.ts checks that they are the very Pool
// and request that undici's index exports.
import type { Dispatcher, Pool } from "undici";

/** undici's Pool class (lib/dispatcher/pool). */
export function poolClass(): typeof Pool {
  return require("undici/lib/dispatcher/pool");
}

/** undici's `request` API (lib/api/api-request), called with a dispatcher as `this`. */
export type RequestApi = (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

export function requestApi(): RequestApi {
  return require("undici/lib/api/api-request");
}
