// /posture-checks: CRUD and list over one collection whose `typeId` (OS, DOMAIN, MAC, PROCESS,
// PROCESS_MULTI, MFA) selects the type's own fields, each checked like the controller's models (400
// COULD_NOT_VALIDATE naming the field, e.g. `operatingSystems.0.type`). The type of a check cannot
// change (PUT/PATCH with another typeId: 400). Every change increments `version`. Unset
// roleAttributes read back as [] (as on a real controller); an MFA check's unset timeoutSeconds is -1 (no timeout).
import type { MockResponse } from "../../types";
import { collectionRoutes, recordHead } from "../crud";
import { ApiError, created, empty, invalidField } from "../envelope";
import type { Route, RouteContext } from "../routes";
import type { EdgeState, PostureCheckRecord } from "../state";
import { asObject, type Body, bool, int, oneOf, str, stringList, tags } from "../validate";

export const POSTURE_CHECK_TYPES = ["OS", "PROCESS", "DOMAIN", "MAC", "MFA", "PROCESS_MULTI"] as const;
export const OS_TYPES = ["Windows", "WindowsServer", "Android", "iOS", "Linux", "macOS"] as const;
const SEMANTICS = ["AllOf", "AnyOf"] as const;

type Mode = "create" | "put" | "patch";
type Fields = Record<string, unknown>;

export class PostureChecks {
  constructor(private readonly state: EdgeState) {}

  routes(): Route[] {
    return collectionRoutes(this.state.postureChecks, this, render);
  }

  create(body: Body): MockResponse {
    const typeId = oneOf(body, "typeId", POSTURE_CHECK_TYPES, { required: true }) as string;
    const fields = readFields(body, typeId, "create");
    this.state.postureChecks.assertUniqueName(fields.name as string);
    const check = this.state.postureChecks.insert(whole(typeId, fields, 1));
    return created("posture-checks", check.id);
  }

  update(ctx: RouteContext, mode: Mode): MockResponse {
    const check = this.state.postureChecks.require(ctx.params.id);
    const body = asObject(ctx.body);
    // The swagger requires typeId on PATCH (the discriminator) but not on PUT; a real controller (v1.6.0)
    // answers its absence with status 602, as for other body-schema failures.
    if (mode === "patch" && body.typeId === undefined) {
      throw new ApiError(602, "COULD_NOT_VALIDATE", "The supplied request contains an invalid document", {
        field: "typeId",
        reason: "typeId in body is required",
        value: "",
      });
    }
    const typeId = oneOf(body, "typeId", POSTURE_CHECK_TYPES, { required: mode === "patch" }) ?? check.typeId;
    if (typeId !== check.typeId) {
      throw invalidField(
        "typeId",
        `the type of a posture check can not change (it is ${check.typeId})`,
        typeId,
      );
    }
    const fields = readFields(body, typeId, mode);
    if (fields.name !== undefined) this.state.postureChecks.assertUniqueName(fields.name as string, check.id);
    const version = check.version + 1;
    if (mode === "put") {
      this.state.postureChecks.replace(check.id, whole(typeId, fields, version));
    } else {
      this.state.postureChecks.update(check.id, { ...fields, version });
    }
    return empty();
  }
}

/** A whole check (create, PUT): what was not sent takes its default. */
function whole(
  typeId: string,
  fields: Fields,
  version: number,
): Omit<PostureCheckRecord, "id" | "createdAt" | "updatedAt"> {
  return {
    roleAttributes: null,
    tags: {},
    ...typeDefaults(typeId),
    ...fields,
    name: fields.name as string,
    typeId,
    version,
  };
}

function typeDefaults(typeId: string): Fields {
  if (typeId === "MFA") {
    // A real controller (v1.6.0) leaves the prompt flags out until they are set.
    return { timeoutSeconds: -1 };
  }
  return {};
}

/** The common fields and the type's own that are present, checked; create and PUT require them. */
function readFields(body: Body, typeId: string, mode: Mode): Fields {
  const required = mode !== "patch";
  const out: Fields = {};
  const name = str(body, "name", { required, nullable: !required });
  if (name !== undefined) out.name = name;
  if ("roleAttributes" in body)
    out.roleAttributes = stringList(body, "roleAttributes", { nullable: true }) ?? null;
  if ("tags" in body) out.tags = tags(body, "tags") ?? {};
  const present = (field: string) => body[field] !== undefined && body[field] !== null;
  const need = (field: string) => {
    if (required && !present(field)) throw invalidField(field, "is required", null);
    return present(field);
  };
  switch (typeId) {
    case "OS":
      if (need("operatingSystems")) out.operatingSystems = operatingSystems(body);
      break;
    case "DOMAIN":
      if (need("domains")) out.domains = sortedSet(nonEmptyList(body, "domains"));
      break;
    case "MAC":
      // Stored as a real controller does: every character but hex digits dropped, lowercase, a sorted set.
      if (need("macAddresses"))
        out.macAddresses = sortedSet(
          nonEmptyList(body, "macAddresses").map((mac) => mac.replace(/[^0-9a-fA-F]/g, "").toLowerCase()),
        );
      break;
    case "PROCESS":
      if (need("process")) out.process = process(asObject(body.process, "process"), "process", false);
      break;
    case "PROCESS_MULTI":
      if (need("semantic")) out.semantic = oneOf(body, "semantic", SEMANTICS);
      if (need("processes")) {
        out.processes = nonEmptyArray(body, "processes")
          .map((p, i) => process(asObject(p, `processes.${i}`), `processes.${i}`, true))
          .sort((a, b) => compare(`${a.osType}\0${a.path}`, `${b.osType}\0${b.path}`));
      }
      break;
    case "MFA":
      for (const field of ["promptOnWake", "promptOnUnlock", "ignoreLegacyEndpoints"]) {
        const value = bool(body, field, { nullable: true });
        if (value !== undefined) out[field] = value;
      }
      if (present("timeoutSeconds")) out.timeoutSeconds = int(body, "timeoutSeconds", { min: -1 });
      break;
  }
  return out;
}

function nonEmptyArray(body: Body, field: string): unknown[] {
  const value = body[field];
  if (!Array.isArray(value)) throw invalidField(field, "must be of type array", value);
  if (value.length === 0) throw invalidField(field, "must have at least 1 items", value);
  return value;
}

function nonEmptyList(body: Body, field: string): string[] {
  nonEmptyArray(body, field);
  return stringList(body, field) as string[];
}

/** A sorted list without repeats: how a real controller (v1.5.0, v1.6.0) stores these lists. */
function sortedSet(list: string[]): string[] {
  return [...new Set(list)].sort();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One rule per type (the last of a repeated type wins), sorted by type; versions sorted, none: null. */
function operatingSystems(body: Body): Fields[] {
  const byType = new Map<string, Fields>();
  nonEmptyArray(body, "operatingSystems").forEach((item, i) => {
    const prefix = `operatingSystems.${i}`;
    const os = asObject(item, prefix);
    const type = oneOf(os, "type", OS_TYPES, { required: true }, prefix) as string;
    const versions = sortedSet(stringList(os, "versions", { nullable: true }, prefix) ?? []);
    byType.set(type, { type, versions: versions.length ? versions : null });
  });
  return [...byType.values()].sort((a, b) => compare(String(a.type), String(b.type)));
}

/** A PROCESS check's `process` or one of PROCESS_MULTI's `processes` (plural signer fingerprints). */
function process(item: Body, prefix: string, multi: boolean): Fields {
  const out: Fields = {
    osType: oneOf(item, "osType", OS_TYPES, { required: true }, prefix),
    path: str(item, "path", { required: true }, prefix),
    hashes: sortedSet(stringList(item, "hashes", { nullable: true }, prefix) ?? []),
  };
  // A PROCESS check's hashes and fingerprint are stored lowercase; PROCESS_MULTI's keep their case.
  if (multi) {
    out.signerFingerprints = sortedSet(
      stringList(item, "signerFingerprints", { nullable: true }, prefix) ?? [],
    );
  } else {
    out.hashes = sortedSet((out.hashes as string[]).map((h) => h.toLowerCase()));
    const signer = str(item, "signerFingerprint", { nullable: true }, prefix);
    if (signer !== undefined) out.signerFingerprint = signer?.toLowerCase();
  }
  return out;
}

const TYPE_FIELDS: Record<string, string[]> = {
  OS: ["operatingSystems"],
  DOMAIN: ["domains"],
  MAC: ["macAddresses"],
  PROCESS: ["process"],
  PROCESS_MULTI: ["semantic", "processes"],
  MFA: ["timeoutSeconds", "promptOnWake", "promptOnUnlock", "ignoreLegacyEndpoints"],
};

function render(check: PostureCheckRecord): Record<string, unknown> {
  const own = Object.fromEntries(
    (TYPE_FIELDS[check.typeId] ?? []).map((f) => [f, structuredClone(check[f])]),
  );
  return {
    ...recordHead("posture-checks", check),
    name: check.name,
    typeId: check.typeId,
    version: check.version,
    roleAttributes: check.roleAttributes ?? [], // unlike identities, a real controller answers []
    ...own,
  };
}
