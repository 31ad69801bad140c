// PostureCheck: a condition on the client device (OS, Windows domain, MAC address, running process(es),
// MFA) that service policies can require. One resource with `typeId` as discriminator, like the API's
// single /posture-checks collection: each type has its own fields (a zod discriminated union, so a
// field of another type, or a missing one, is a check-time error naming it). The type cannot change
// in place: a new typeId replaces the check.
import { z } from "zod";
import type { EdgeObject } from "../http/edge";
import type { Props, ResourceDefinition } from "../resource";
import { edgeName } from "./common";
import { EdgeCollection, listOf, putOperations, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { roleAttributes, tags } from "./roles";

export const POSTURE_CHECK_TYPES = ["OS", "DOMAIN", "MAC", "PROCESS", "PROCESS_MULTI", "MFA"] as const;
export const OS_TYPES = ["Windows", "WindowsServer", "Android", "iOS", "Linux", "macOS"] as const;

const osType = z.enum(OS_TYPES).describe("Operating system the rule applies to.");

// Real controllers (v1.5.0, v1.6.0) store these lists sorted (Go byte order, as JS sorts strings),
// some of them rewritten: each list is put in the controller's form at check, so what is declared is
// what is read back (docs/guides/controller-fidelity.md lists each field).
const sorted = (list: string[]) => [...list].sort();
const unique = (list: unknown[]) => new Set(list.map((v) => JSON.stringify(v))).size === list.length;

const nonEmptySet = (what: string) =>
  z
    .array(z.string().min(1))
    .min(1, `at least one ${what}`)
    .overwrite(sorted)
    .refine(unique, { message: `${what}s must not repeat` });

/** A list kept sorted by the controller (and rewritten by `normalise`), empty by default. */
const sortedList = (what: string, normalise: (value: string) => string = (v) => v) =>
  z
    .array(z.string().min(1))
    .default([])
    .overwrite((list) => sorted(list.map(normalise)))
    .refine(unique, { message: `${what}s must not repeat` });

const lower = (value: string) => value.toLowerCase();

/**
 * A MAC address as the controller stores it: it drops every character that is not a hex digit and
 * lowercases the rest (anything is accepted: "not a mac" is stored as "aac"), so only 12 hex digits,
 * optionally separated by ":", "-" or ".", are taken here, and they are stored as the controller would.
 */
const MAC = /^[0-9a-fA-F]{2}([:.-]?[0-9a-fA-F]{2}){5}$|^[0-9a-fA-F]{4}(\.[0-9a-fA-F]{4}){2}$/;
const macAddress = (value: string) => value.replace(/[^0-9a-fA-F]/g, "").toLowerCase();

/**
 * An OS version rule the controller parses (a semver range: an operator and Major.Minor.Patch,
 * several joined by spaces or "||"); anything else fails there with a 500.
 */
const VERSION_RANGE =
  /^(\s*(>=|<=|>|<|=|!=|==)?\s*v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?\s*)+$/;
const versionRange = z
  .string()
  .min(1)
  .refine((value) => value.split("||").every((part) => VERSION_RANGE.test(part)), {
    message: 'a version range such as ">=10.0.19041" or ">=13.0.0 <14.0.0" (Major.Minor.Patch)',
  });

export const PostureOperatingSystem = z
  .strictObject({
    type: osType,
    versions: z
      .array(versionRange)
      .default([])
      .overwrite(sorted)
      .refine(unique, { message: "versions must not repeat" })
      .describe('Allowed versions, e.g. ">=10.0.19041" (empty: any version; kept sorted).'),
  })
  .meta({ id: "PostureCheckOperatingSystem", description: "An allowed operating system." });

/** The fields a PROCESS and a PROCESS_MULTI check share (their hashes differ: see each). */
const processFields = {
  osType,
  path: z.string().min(1).describe("Absolute path of the executable."),
};

export const PostureProcess = z
  .strictObject({
    ...processFields,
    hashes: sortedList("hash", lower).describe(
      "Allowed SHA-512 hashes of the binary (empty: any; stored lowercase, sorted).",
    ),
    signerFingerprint: z
      .string()
      .min(1)
      .overwrite(lower)
      .optional()
      .describe("SHA-1 fingerprint of the certificate that must have signed the binary (stored lowercase)."),
  })
  .meta({ id: "PostureCheckProcess", description: "A process that must be running." });

export const PostureProcessMulti = z
  .strictObject({
    ...processFields,
    // Unlike PROCESS, the controller keeps the case of PROCESS_MULTI hashes and fingerprints.
    hashes: sortedList("hash").describe("Allowed SHA-512 hashes of the binary (empty: any; kept sorted)."),
    signerFingerprints: sortedList("signer fingerprint").describe(
      "SHA-1 fingerprints of certificates allowed to have signed the binary (empty: any; kept sorted).",
    ),
  })
  .meta({ id: "PostureCheckProcessMulti", description: "One of the processes of a PROCESS_MULTI check." });

/** Sorts objects by some of their string fields, in order (the controller's order of OS and processes). */
const byKeys =
  <T extends Record<string, unknown>>(...keys: (keyof T)[]) =>
  (list: T[]) =>
    [...list].sort((a, b) => {
      for (const key of keys) {
        const x = String(a[key]);
        const y = String(b[key]);
        if (x !== y) return x < y ? -1 : 1;
      }
      return 0;
    });

const common = {
  name: edgeName("Name of the posture check (unique)."),
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
    operatingSystems: z
      .array(PostureOperatingSystem)
      .min(1)
      .overwrite(byKeys("type"))
      // The controller keeps only the last rule of a repeated type.
      .refine((list) => unique(list.map((os) => os.type)), {
        message: "each operating system type at most once",
      })
      .describe("OS: the allowed operating systems (kept sorted by type)."),
  }),
  z.strictObject({
    ...common,
    typeId: typeId("DOMAIN"),
    domains: nonEmptySet("domain").describe("DOMAIN: Windows domains the device must be joined to (a set)."),
  }),
  z.strictObject({
    ...common,
    typeId: typeId("MAC"),
    macAddresses: z
      .array(z.string().regex(MAC, 'a MAC address: 12 hex digits, e.g. "00:1a:2b:3c:4d:5e"'))
      .min(1, "at least one MAC address")
      .overwrite((list) => sorted(list.map(macAddress)))
      .refine(unique, { message: "MAC addresses must not repeat" })
      .describe(
        "MAC: one of these MAC addresses must be present (a set; stored as 12 lowercase hex digits, sorted).",
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
    processes: z
      .array(PostureProcessMulti)
      .min(1)
      .overwrite(byKeys("osType", "path"))
      .describe("PROCESS_MULTI: the processes (a set; kept sorted by osType, then path)."),
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
