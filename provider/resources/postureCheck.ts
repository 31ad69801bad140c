// PostureCheck: a condition on the client device (OS, Windows domain, MAC address, running process(es),
// MFA) that service policies can require. One resource with `typeId` as discriminator, like the API's
// single /posture-checks collection: each type has its own fields (a zod discriminated union, so a
// field of another type, or a missing one, is a check-time error naming it). The type cannot change
// in place: a new typeId replaces the check.
import { z } from "zod";
import type { EdgeObject } from "../http/edge";
import type { Props, ResourceDefinition } from "../resource";
import { EdgeCollection, listOf, putOperations, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { roleAttributes, tags } from "./roles";

export const POSTURE_CHECK_TYPES = ["OS", "DOMAIN", "MAC", "PROCESS", "PROCESS_MULTI", "MFA"] as const;
export const OS_TYPES = ["Windows", "WindowsServer", "Android", "iOS", "Linux", "macOS"] as const;

const osType = z.enum(OS_TYPES).describe("Operating system the rule applies to.");
const nonEmptySet = (what: string) =>
  z
    .array(z.string().min(1))
    .min(1, `at least one ${what}`)
    .refine((list) => new Set(list).size === list.length, { message: `${what}s must not repeat` });

/** A list of non-empty strings, empty unless given (empty means "any" in a posture check). */
const anyOf = (description: string) => z.array(z.string().min(1)).default([]).describe(description);

export const PostureOperatingSystem = z
  .strictObject({
    type: osType,
    versions: anyOf('Allowed versions, e.g. ">=10.0.19041" (empty: any version).'),
  })
  .meta({ id: "PostureCheckOperatingSystem", description: "An allowed operating system." });

/** The fields a PROCESS and a PROCESS_MULTI check share. */
const processFields = {
  osType,
  path: z.string().min(1).describe("Absolute path of the executable."),
  hashes: anyOf("Allowed SHA-512 hashes of the binary (empty: any)."),
};

export const PostureProcess = z
  .strictObject({
    ...processFields,
    signerFingerprint: z
      .string()
      .min(1)
      .optional()
      .describe("SHA-1 fingerprint of the certificate that must have signed the binary."),
  })
  .meta({ id: "PostureCheckProcess", description: "A process that must be running." });

export const PostureProcessMulti = z
  .strictObject({
    ...processFields,
    signerFingerprints: anyOf(
      "SHA-1 fingerprints of certificates allowed to have signed the binary (empty: any).",
    ),
  })
  .meta({ id: "PostureCheckProcessMulti", description: "One of the processes of a PROCESS_MULTI check." });

const common = {
  name: z.string().min(1).describe("Name of the posture check (unique)."),
  roleAttributes,
  tags,
};
const typeId = <T extends (typeof POSTURE_CHECK_TYPES)[number]>(type: T) =>
  z
    .literal(type)
    .describe(`Posture check type (${POSTURE_CHECK_TYPES.join(", ")}); a change replaces the check.`);

export const PostureCheckInputs = z.discriminatedUnion("typeId", [
  z.strictObject({
    ...common,
    typeId: typeId("OS"),
    operatingSystems: z.array(PostureOperatingSystem).min(1).describe("OS: the allowed operating systems."),
  }),
  z.strictObject({
    ...common,
    typeId: typeId("DOMAIN"),
    domains: nonEmptySet("domain").describe("DOMAIN: Windows domains the device must be joined to (a set)."),
  }),
  z.strictObject({
    ...common,
    typeId: typeId("MAC"),
    macAddresses: nonEmptySet("MAC address").describe(
      "MAC: one of these MAC addresses must be present (a set).",
    ),
  }),
  z.strictObject({
    ...common,
    typeId: typeId("PROCESS"),
    process: PostureProcess.describe("PROCESS: the process that must be running."),
  }),
  z.strictObject({
    ...common,
    typeId: typeId("PROCESS_MULTI"),
    semantic: z
      .enum(["AllOf", "AnyOf"])
      .default("AllOf")
      .describe("PROCESS_MULTI: whether all processes (AllOf, default) or any (AnyOf) must run."),
    processes: z.array(PostureProcessMulti).min(1).describe("PROCESS_MULTI: the processes (a set)."),
  }),
  z.strictObject({
    ...common,
    typeId: typeId("MFA"),
    timeoutSeconds: z
      .number()
      .int()
      .min(-1)
      .default(-1)
      .describe("MFA: seconds after which MFA must be passed again (-1, default: never)."),
    promptOnWake: z
      .boolean()
      .default(false)
      .describe("MFA: ask again when the device wakes (default false)."),
    promptOnUnlock: z
      .boolean()
      .default(false)
      .describe("MFA: ask again when the device is unlocked (default false)."),
    ignoreLegacyEndpoints: z
      .boolean()
      .default(false)
      .describe(
        "MFA: do not apply the timeout and prompts to clients too old to support them (default false).",
      ),
  }),
]);
export type PostureCheckInputs = z.output<typeof PostureCheckInputs>;

const collection = new EdgeCollection("PostureCheck", "posture-checks");

/** Create and PUT body: the common fields, `typeId` (the API's discriminator) and the type's own fields. */
function body(inputs: PostureCheckInputs): Props {
  return { ...inputs };
}

/** The type's own fields as the program declares them (unset lists as [], unset optionals left out). */
function typeFields(server: EdgeObject): Props {
  switch (server.typeId) {
    case "OS":
      return {
        operatingSystems: listOf(server.operatingSystems).map((os) => ({
          ...tagsOf(os),
          versions: listOf(tagsOf(os).versions),
        })),
      };
    case "DOMAIN":
      return { domains: listOf(server.domains) };
    case "MAC":
      return { macAddresses: listOf(server.macAddresses) };
    case "PROCESS": {
      const { signerFingerprint, ...process } = tagsOf(server.process);
      return {
        process: {
          ...process,
          hashes: listOf(process.hashes),
          ...(signerFingerprint ? { signerFingerprint } : {}),
        },
      };
    }
    case "PROCESS_MULTI":
      return {
        semantic: server.semantic ?? "AllOf",
        processes: listOf(server.processes).map((p) => ({
          ...tagsOf(p),
          hashes: listOf(tagsOf(p).hashes),
          signerFingerprints: listOf(tagsOf(p).signerFingerprints),
        })),
      };
    case "MFA":
      return {
        timeoutSeconds: server.timeoutSeconds ?? -1,
        promptOnWake: server.promptOnWake ?? false,
        promptOnUnlock: server.promptOnUnlock ?? false,
        ignoreLegacyEndpoints: server.ignoreLegacyEndpoints ?? false,
      };
    default:
      return {};
  }
}

function outputs(server: EdgeObject): Props {
  return {
    name: server.name,
    typeId: server.typeId,
    roleAttributes: listOf(server.roleAttributes),
    tags: tagsOf(server.tags),
    ...typeFields(server),
    version: server.version ?? 0,
  };
}

export const postureCheck = {
  kind: "PostureCheck",
  api: "edge" as const,
  description:
    "An OpenZiti posture check that service policies can require (`postureCheckRoles`): `typeId` OS, DOMAIN, " +
    "MAC, PROCESS, PROCESS_MULTI or MFA, each with its own fields. Changing `typeId` replaces the check.",
  inputs: PostureCheckInputs,
  outputs: z.object({
    version: z.number().int().describe("The controller's version of the check (grows with each change)."),
  }),
  replaceOnChanges: ["typeId"],
  // Names are unique: the new check can only be created once the old one is gone.
  deleteBeforeReplace: true,
  setProperties: ["roleAttributes", "domains", "macAddresses", "operatingSystems", "processes"],
  ...putOperations(collection, body, outputs),
  ...collectionOperations(collection, (server) => outputs(server)),
} satisfies ResourceDefinition<PostureCheckInputs>;
