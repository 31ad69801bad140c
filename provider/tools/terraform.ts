// From Terraform: the objects a Terraform (or OpenTofu) state holds for the OpenZiti Terraform provider
// (`netfoundry/ziti`), mapped to this provider's kinds. The state (format version 4: `{version: 4,
// terraform_version, serial, lineage, outputs, resources: [{module?, mode, type, name, provider,
// instances: [{index_key?, schema_version, attributes, status?, deposed?, ...}]}]}`) gives each object's
// id and its Terraform attributes; this gives
// - Pulumi's import file for the provider plugin (`pulumi import --file` then writes the program in the
//   project's language, from what the controller holds);
// - each object's attributes as this provider's inputs (a TypeScript program for the dynamic provider);
// - what could not be mapped and why: data sources, types of other providers or unknown ones, objects
//   Terraform is about to replace or destroy, attributes with no counterpart.
// The attribute names follow the Terraform provider's documented resource schemas (its repository,
// docs/resources/<type>.md, e.g. docs/resources/identity.md for `ziti_identity`); see
// docs/guides/from-terraform.md for the table. Every mapped object is checked against its kind's input
// schema, so an attribute this table does not know (a newer provider's) is reported, never dropped silently.
import { PACKAGE } from "../packageName";
import type { Props } from "../resource";
import { resourceDefinitions } from "../resources/all";
import { type Found, type ImportFile, programText, uniqueName } from "./importSnippets";

/** How one Terraform resource type becomes objects of one kind. */
interface TypeMapping {
  kind: string;
  /** Inputs every object of the type has that no attribute carries (a posture check's `typeId`). */
  fixed?: Props;
  /** Attributes that become something other than their camelCase name (top level only). */
  special?: Record<string, (value: unknown) => Props>;
  /** A config type: every attribute but name, tags and config_type_id is the config's `data`. */
  configType?: string;
}

/**
 * The resource types of `netfoundry/ziti` (its docs/resources/*.md and internal/provider/provider.go's
 * Resources()), each with the page its attributes follow.
 */
export const TERRAFORM_TYPES: Record<string, TypeMapping & { doc: string }> = {
  // docs/resources/identity.md: "Ziti Identity Resource, ott type enrollment".
  ziti_identity: { kind: "Identity", fixed: { enrollment: { ott: true } }, doc: "identity.md" },
  // docs/resources/identity_ca.md: "Type: ottca"; `ottca` (required) is the CA's id.
  ziti_identity_ca: {
    kind: "Identity",
    special: { ottca: (ottca) => ({ enrollment: { ottca } }) },
    doc: "identity_ca.md",
  },
  // docs/resources/identity_updb.md: "Type: updb"; `updb_username` (required).
  ziti_identity_updb: {
    kind: "Identity",
    special: { updb_username: (updb) => ({ enrollment: { updb } }) },
    doc: "identity_updb.md",
  },
  // docs/resources/identity_none.md: "Enrollment Type: none".
  ziti_identity_none: { kind: "Identity", doc: "identity_none.md" },
  ziti_service: { kind: "Service", doc: "service.md" },
  ziti_service_policy: { kind: "ServicePolicy", doc: "service_policy.md" },
  ziti_edge_router: { kind: "EdgeRouter", doc: "edge_router.md" },
  ziti_edge_router_policy: { kind: "EdgeRouterPolicy", doc: "edge_router_policy.md" },
  ziti_service_edge_router_policy: { kind: "ServiceEdgeRouterPolicy", doc: "service_edge_router_policy.md" },
  ziti_auth_policy: { kind: "AuthPolicy", doc: "auth_policy.md" },
  ziti_certificate_authority: { kind: "Ca", doc: "certificate_authority.md" },
  ziti_external_jwt_signer: { kind: "ExternalJwtSigner", doc: "external_jwt_signer.md" },
  ziti_host_v1_config: { kind: "Config", configType: "host.v1", doc: "host_v1_config.md" },
  ziti_host_v2_config: { kind: "Config", configType: "host.v2", doc: "host_v2_config.md" },
  ziti_intercept_v1_config: { kind: "Config", configType: "intercept.v1", doc: "intercept_v1_config.md" },
  ziti_interfaces_v1_config: { kind: "Config", configType: "interfaces.v1", doc: "interfaces_v1_config.md" },
  ziti_proxy_v1_config: { kind: "Config", configType: "proxy.v1", doc: "proxy_v1_config.md" },
  ziti_posture_check_domains: {
    kind: "PostureCheck",
    fixed: { typeId: "DOMAIN" },
    doc: "posture_check_domains.md",
  },
  ziti_posture_check_mac_addresses: {
    kind: "PostureCheck",
    fixed: { typeId: "MAC" },
    doc: "posture_check_mac_addresses.md",
  },
  ziti_posture_check_mfa: { kind: "PostureCheck", fixed: { typeId: "MFA" }, doc: "posture_check_mfa.md" },
  ziti_posture_check_os: { kind: "PostureCheck", fixed: { typeId: "OS" }, doc: "posture_check_os.md" },
  ziti_posture_check_process: {
    kind: "PostureCheck",
    fixed: { typeId: "PROCESS" },
    doc: "posture_check_process.md",
  },
  ziti_posture_check_multi_process: {
    kind: "PostureCheck",
    fixed: { typeId: "PROCESS_MULTI" },
    doc: "posture_check_multi_process.md",
  },
};

/**
 * Attribute names that are not the snake_case of this provider's (and the Edge API's) camelCase name,
 * at any depth. Every other attribute is its camelCase name (`role_attributes` -> `roleAttributes`,
 * `ext_jwt` -> `extJwt`, `allowed_port_ranges` -> `allowedPortRanges`).
 */
export const RENAMED: Record<string, string> = {
  identityroles: "identityRoles", // policies, certificate_authority
  serviceroles: "serviceRoles", // service_policy, service_edge_router_policy
  posturecheckroles: "postureCheckRoles", // service_policy
  edgerouterroles: "edgeRouterRoles", // edge_router_policy, service_edge_router_policy
  is_tunnelerenabled: "isTunnelerEnabled", // edge_router
  max_idle_milliseconds: "maxIdleTimeMillis", // service
  service_hosting_precedence: "serviceHostingPrecedences", // identity*
  is_autoca_enrollment_enabled: "isAutoCaEnrollmentEnabled", // certificate_authority
  is_ottca_enrollment_enabled: "isOttCaEnrollmentEnabled", // certificate_authority
  matchercriteria: "matcherCriteria", // certificate_authority.external_id_claim
  parsercriteria: "parserCriteria", // certificate_authority.external_id_claim
  jwt_signer: "requireExtJwtSigner", // auth_policy.secondary ("JWT Signer ID")
};

/** Attributes Terraform computes that are no input here (the id is the import id; the token an output). */
const COMPUTED = new Set(["id", "last_updated", "enrollment_token"]);

const camel = (name: string) =>
  RENAMED[name] ?? name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** A Terraform value in this provider's form: keys renamed at every depth, nulls (unset) left out. */
function converted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(converted);
  if (value && typeof value === "object") {
    const out: Props = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[camel(k)] = converted(v);
    return out;
  }
  return value;
}

export interface MappedObject {
  /** Terraform's address, e.g. `module.net.ziti_identity.alice["a"]`. */
  address: string;
  kind: string;
  id: string;
  /** The Pulumi resource name (unique in the file). */
  name: string;
  /** The attributes as this kind's inputs (those with no counterpart left out, see notMapped). */
  inputs: Props;
}

export interface NotMapped {
  address: string;
  /** The attribute, for one that has no counterpart; none when the whole object is left out. */
  attribute?: string;
  reason: string;
}

export interface TerraformMigration {
  objects: MappedObject[];
  notMapped: NotMapped[];
}

interface StateResource {
  module?: string;
  mode?: string;
  type?: string;
  name?: string;
  provider?: string;
  instances?: { index_key?: string | number; attributes?: Props; status?: string; deposed?: string }[];
}

/** The provider address of `netfoundry/ziti` from any registry host (Terraform's, OpenTofu's, a mirror). */
const ZITI_PROVIDER = /^provider\["([^"]+\/)?netfoundry\/ziti"\](\..+)?$/;

export function migrationFromTerraform(document: unknown): TerraformMigration {
  const doc = document as { version?: unknown; resources?: unknown };
  if (doc?.version !== 4 || !Array.isArray(doc.resources))
    throw new Error(
      `not a Terraform state of format version 4 (found version ${JSON.stringify(doc?.version)}): ` +
        "expected terraform.tfstate as Terraform >= 0.12 or OpenTofu write it (`terraform state pull`)",
    );
  const migration: TerraformMigration = { objects: [], notMapped: [] };
  const found: (Omit<MappedObject, "name"> & { nameBase: string; type: string })[] = [];
  for (const r of doc.resources as StateResource[]) {
    const base = [r.module, r.mode === "data" ? "data" : undefined, r.type, r.name].filter(Boolean).join(".");
    const instances = r.instances ?? [];
    const skip = (reason: string) => {
      for (const i of instances.length ? instances : [{}])
        migration.notMapped.push({ address: address(base, i), reason });
    };
    if (r.mode === "data") {
      skip("a data source: Terraform only reads it; use a lookup function (e.g. getIdentity) in the program");
      continue;
    }
    if (!ZITI_PROVIDER.test(r.provider ?? "")) {
      skip(`a resource of ${r.provider ?? "an unnamed provider"}, not of netfoundry/ziti`);
      continue;
    }
    const mapping = TERRAFORM_TYPES[r.type ?? ""];
    if (!mapping) {
      skip(`${r.type} is not a resource type of netfoundry/ziti that this importer knows`);
      continue;
    }
    for (const instance of instances) {
      const at = address(base, instance);
      if (instance.deposed) {
        migration.notMapped.push({
          address: at,
          reason: "a deposed object: Terraform destroys it on the next apply",
        });
        continue;
      }
      if (instance.status === "tainted") {
        migration.notMapped.push({
          address: at,
          reason: "tainted: Terraform would replace it on the next apply (apply or untaint it first)",
        });
        continue;
      }
      const attributes = instance.attributes ?? {};
      if (typeof attributes.id !== "string" || !attributes.id) {
        migration.notMapped.push({ address: at, reason: "no id in the state" });
        continue;
      }
      const { inputs, notMapped } = mapAttributes(mapping, attributes, at);
      migration.notMapped.push(...notMapped);
      const nameBase = [
        r.module?.replace(/^module\./, "").replace(/\.module\./g, "-"),
        r.name,
        instance.index_key,
      ]
        .filter((part) => part !== undefined && part !== "")
        .join("-");
      found.push({
        address: at,
        kind: mapping.kind,
        id: attributes.id,
        inputs,
        nameBase,
        type: String(r.type),
      });
    }
  }
  // Terraform's names are unique per type only: a name that several types share gets its type too
  // (`service-web`, `intercept-v1-config-web`), so that the program still reads like the configuration.
  const names = new Set<string>();
  const count = (base: string) => found.filter((f) => f.nameBase === base).length;
  for (const { nameBase, type, ...object } of found) {
    const name = count(nameBase) > 1 ? `${type.replace(/^ziti_/, "")}-${nameBase}` : nameBase;
    migration.objects.push({ ...object, name: uniqueName(name, names) });
  }
  return migration;
}

function address(base: string, instance: { index_key?: string | number; deposed?: string }): string {
  const key = instance.index_key;
  const indexed = key === undefined ? base : `${base}[${JSON.stringify(key)}]`;
  return instance.deposed ? `${indexed} (deposed ${instance.deposed})` : indexed;
}

/** One object's attributes as its kind's inputs, and the attributes that have no counterpart. */
export function mapAttributes(
  mapping: TypeMapping,
  attributes: Props,
  at: string,
): { inputs: Props; notMapped: NotMapped[] } {
  const inputs: Props = { ...mapping.fixed };
  const data: Props = {};
  const origin = new Map<string, string>(); // input key -> attribute, to name the attribute in reports
  for (const [attribute, value] of Object.entries(attributes)) {
    if (COMPUTED.has(attribute) || value === null) continue;
    const special = mapping.special?.[attribute];
    const entries = special
      ? Object.entries(special(value))
      : [[camel(attribute), converted(value)] as [string, unknown]];
    for (const [key, v] of entries) {
      origin.set(key, attribute);
      if (mapping.configType && !["name", "tags", "configTypeId"].includes(key)) data[key] = v;
      else inputs[key] = v;
    }
  }
  if (mapping.configType) {
    inputs.configTypeName = mapping.configType;
    inputs.data = data;
  }
  const def = resourceDefinitions.find((d) => d.kind === mapping.kind)!;
  const parsed = def.inputs.safeParse(inputs);
  const notMapped: NotMapped[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys" && issue.path.length === 0) {
        for (const key of issue.keys) {
          delete inputs[key];
          notMapped.push({
            address: at,
            attribute: origin.get(key) ?? key,
            reason: `${mapping.kind} has no counterpart`,
          });
        }
      } else {
        const path = issue.path.join(".");
        notMapped.push({
          address: at,
          attribute: origin.get(String(issue.path[0])) ?? path,
          reason: `${mapping.kind}.${path}: ${issue.message} (kept as it is: fix it in the program)`,
        });
      }
    }
  }
  return { inputs, notMapped };
}

/** Pulumi's import file for the provider plugin: one entry per mapped object, its Terraform name kept. */
export function terraformImportFile(migration: TerraformMigration, version?: string): ImportFile {
  return {
    resources: migration.objects.map((o) => ({
      type: `${PACKAGE}:index:${o.kind}`,
      name: o.name,
      id: o.id,
      ...(version ? { version } : {}),
    })),
  };
}

/** The TypeScript program (dynamic provider) that declares the mapped objects and imports each. */
export function terraformProgram(migration: TerraformMigration): string {
  const found: Found[] = migration.objects.map((o) => ({
    def: resourceDefinitions.find((d) => d.kind === o.kind)!,
    id: o.id,
    state: o.inputs,
    name: o.name,
  }));
  return programText(found, {}, migration.notMapped.map(describe));
}

/** One not-mapped entry as a line: `address: reason` or `address attribute: reason`. */
export function describe(entry: NotMapped): string {
  return `${entry.address}${entry.attribute ? ` ${entry.attribute}` : ""}: not mapped: ${entry.reason}`;
}
