// KeyPair: an RSA key and a certificate request, generated inside the provider at create time and kept
// in the state (the private key as a secret), so one program can declare a device's key, CSR and its
// ClientCertificate. No API is called; the key never changes unless an input changes (replacement).
import { createHash, createPublicKey } from "node:crypto";
import { z } from "zod";
import { ProviderError } from "../http/errors";
import { registerSecret } from "../redact";
import type { Props, ResourceDefinition } from "../resource";
import { generateKeyPairAndCsr } from "./pem";

/** RFC 5280's upper bounds for CN, O and OU (ub-common-name etc.): longer ones make an invalid CSR. */
const subjectAttribute = z
  .string()
  .min(1)
  .max(64, "at most 64 characters (the X.509 limit for CN, O and OU)");

export const KeyPairInputs = z.strictObject({
  commonName: subjectAttribute.describe("Subject common name (CN) of the certificate request."),
  organization: subjectAttribute.optional().describe("Subject organization (O)."),
  organizationalUnit: subjectAttribute.optional().describe("Subject organizational unit (OU)."),
  keySize: z
    .union([z.literal(2048), z.literal(3072), z.literal(4096)])
    .default(2048)
    .describe("RSA key size in bits (default 2048)."),
});
export type KeyPairInputs = z.output<typeof KeyPairInputs>;

export const KeyPairOutputs = z.object({
  privateKeyPem: z.string().describe("The private key, PKCS#8 PEM (a secret)."),
  publicKeyPem: z.string().describe("The public key, SPKI PEM."),
  csrPem: z.string().describe("A certificate request for the subject, signed with the key (PEM)."),
});

export const keyPair = {
  kind: "KeyPair",
  // No API at all; "edge" only means "not scoped by frontdoorId" (no frontdoorId default is added).
  api: "none" as const,
  description:
    "An RSA key pair and a certificate request (CSR), generated once by the provider and kept in the state " +
    "(`privateKeyPem` as a secret). Feed `csrPem` to a ClientCertificate to have the frontdoor issue the " +
    "certificate. Any input change generates a new key (replacement). No API is called.",
  inputs: KeyPairInputs,
  outputs: KeyPairOutputs,
  replaceOnChanges: ["commonName", "organization", "organizationalUnit", "keySize"],
  secretOutputs: ["privateKeyPem"],
  async create(_ctx, inputs) {
    const generated = generateKeyPairAndCsr(inputs, inputs.keySize);
    registerSecret(generated.privateKeyPem);
    // The id names the key: SHA-256 of the public key (DER), like an SSH or SPKI pin.
    const der = createPublicKey(generated.publicKeyPem).export({ type: "spki", format: "der" });
    const id = createHash("sha256").update(der).digest("hex");
    return { id, outs: { ...inputs, ...generated } };
  },
  // Nothing to ask: the state is the truth. Without a key in it (an `import`), there is nothing to adopt.
  async read(_ctx, _id, state) {
    // The state is the only place a KeyPair exists: refresh returns it unchanged. Import has no
    // private key to return, which is an error worth saying plainly (not "does not exist").
    if (typeof state.privateKeyPem !== "string") {
      throw new ProviderError(
        "a KeyPair cannot be imported: its private key exists only in the state that generated it",
      );
    }
    return state as Props;
  },
  // Every input replaces, so an update only ever records what the diff found equal.
  async update(_ctx, _id, olds, news) {
    return { ...olds, ...news };
  },
  async delete() {},
} satisfies ResourceDefinition<KeyPairInputs>;
