import { type Args, resourceClass } from "./resource";
import type { KeyPairInputs } from "./types.generated";

export type KeyPairArgs = Args<KeyPairInputs>;

/**
 * An RSA key pair and certificate request (`frontdoor:index:KeyPair`), generated once by the provider
 * (no API call) and kept in the state: `privateKeyPem` (a secret), `publicKeyPem`, `csrPem`. It stays the
 * same across refreshes; changing any input generates a new key (replacement).
 *
 * ```ts
 * const key = new frontdoor.KeyPair("device-1", { commonName: "device-1", organization: "Acme" });
 * new frontdoor.ClientCertificate("device-1", { name: "device-1", value: key.csrPem });
 * ```
 */
export class KeyPair extends resourceClass("KeyPair") {}
