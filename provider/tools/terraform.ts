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
// The state is input this does not control: its shape is checked first (stateInput.ts), every name
// from it is looked up as an own property only, keys inside map-typed values (tags, app_data,
// service_hosting_costs) are kept byte for byte, and values Terraform marks sensitive
// (`sensitive_attributes`) become secret config reads of the program, never literals.
import { forbiddenKeyFailures } from "../forbiddenKeys";
import { PACKAGE } from "../packageName";
import type { Props } from "../resource";
import { resourceDefinitions } from "../resources/all";
import { deref, type JsonSchema, jsonSchema, variants } from "../shape";
import { hclString, own, ResourceNames, setOwn } from "./codeText";
import { type Found, type ImportFile, type Program, program } from "./importSnippets";
import { checkJsonData, field, isObject, refuse, step } from "./stateInput";

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
  own(RENAMED, name) ?? name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** Where in the kind's input schema a value is: the properties of an object, the values of a map. */
interface SchemaView {
  properties?: Record<string, JsonSchema>;
  /** A map's value schema (its keys are data, kept as they are). */
  mapValues?: JsonSchema;
  items?: JsonSchema;
}

function view(node: JsonSchema | undefined, root: JsonSchema): SchemaView | undefined {
  if (!node) return undefined;
  const found: SchemaView = {};
  for (const v of variants(deref(node, root)).map((n) => deref(n, root))) {
    if (v.properties) found.properties = { ...found.properties, ...v.properties };
    else if (typeof v.additionalProperties === "object") found.mapValues = v.additionalProperties;
    if (v.items) found.items = v.items;
  }
  return found;
}

/** The paths of `sensitive_attributes`, as a tree of attribute names and map keys. */
interface Sensitive {
  /** The whole value here is sensitive. */
  all: boolean;
  children: Map<string, Sensitive>;
}

const sensitiveNode = (): Sensitive => ({ all: false, children: new Map() });

/**
 * A Terraform value in this provider's form, following the kind's schema (`schema`; none: a config's
 * data, where every key is a property name): an object's attribute names renamed (the RENAMED table,
 * else camelCase), a map's keys kept as they are, nulls (unset) left out of objects. The input paths of
 * sensitive values are added to `secrets`. Bounded recursion: checkJsonData limited the depth.
 */
function converted(
  value: unknown,
  schema: SchemaView | undefined,
  root: JsonSchema,
  sensitive: Sensitive | undefined,
  path: string[],
  secrets: string[][],
  known: boolean,
): unknown {
  if (sensitive?.all) {
    secrets.push(path);
    sensitive = undefined;
  }
  if (Array.isArray(value))
    return value.map((v) => converted(v, view(schema?.items, root), root, undefined, path, secrets, known));
  if (!isObject(value)) return value;
  const out: Props = {};
  const map = known && schema?.mapValues !== undefined && !schema.properties;
  for (const k of Object.keys(value)) {
    const v = value[k];
    if (v === null && !map) continue;
    const key = map ? k : camel(k);
    const child = map ? schema?.mapValues : schema?.properties && own(schema.properties, key);
    setOwn(
      out,
      key,
      converted(v, view(child, root), root, sensitive?.children.get(k), [...path, key], secrets, known),
    );
  }
  return out;
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
  /** Input paths of the values Terraform marks sensitive (`sensitive_attributes`). */
  secrets: string[][];
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
  instances?: {
    index_key?: string | number;
    attributes?: Props;
    status?: string;
    deposed?: string;
    sensitive_attributes?: unknown[];
  }[];
}

/** The provider address of `netfoundry/ziti` from any registry host (Terraform's, OpenTofu's, a mirror). */
const ZITI_PROVIDER = /^provider\["([^"]+\/)?netfoundry\/ziti"\](\..+)?$/;

/**
 * Refuses a state whose resources do not have the shape of format 4 (the types of the fields read
 * here), naming the place; and any value nested deeper than MAX_DEPTH. One pass, no recursion.
 */
function checkState(doc: Record<string, unknown>): void {
  checkJsonData(doc, "");
  const resources = doc.resources as unknown[];
  for (let i = 0; i < resources.length; i++) {
    const r = resources[i];
    const at = step("resources", i);
    if (!isObject(r)) refuse(at, `expected an object, found ${r === null ? "null" : typeof r}`);
    for (const key of ["module", "mode", "type", "name", "provider"]) field(r, key, at, "string");
    field(r, "instances", at, "array");
    const instances = (r.instances ?? []) as unknown[];
    for (let j = 0; j < instances.length; j++) {
      const instance = instances[j];
      const where = step(step(at, "instances"), j);
      if (!isObject(instance))
        refuse(where, `expected an object, found ${instance === null ? "null" : typeof instance}`);
      field(instance, "index_key", where, "string|number");
      field(instance, "attributes", where, "object");
      field(instance, "status", where, "string");
      field(instance, "deposed", where, "string");
      field(instance, "sensitive_attributes", where, "array");
    }
  }
}

/**
 * The sensitive paths of an instance (format 4: `[[{"type": "get_attr", "value": "app_data"},
 * {"type": "index", "value": {"value": "key", "type": "string"}}], ...]`) as a tree. A step this does
 * not follow (a list index) makes everything from there on sensitive: more secret, never less.
 */
function sensitivePaths(paths: unknown[] | undefined, at: string): Sensitive {
  const tree = sensitiveNode();
  for (let i = 0; i < (paths ?? []).length; i++) {
    const steps = paths![i];
    const where = step(at, i);
    if (!Array.isArray(steps) || steps.length === 0)
      refuse(where, "expected a path (a non-empty array of steps)");
    let node = tree;
    for (const s of steps) {
      const key =
        isObject(s) && s.type === "get_attr"
          ? s.value
          : isObject(s) && s.type === "index" && isObject(s.value)
            ? s.value.value
            : undefined;
      if (typeof key !== "string") break;
      if (!node.children.has(key)) node.children.set(key, sensitiveNode());
      node = node.children.get(key)!;
    }
    if (node === tree) refuse(where, "a path that names no attribute");
    node.all = true;
  }
  return tree;
}

export function migrationFromTerraform(document: unknown): TerraformMigration {
  const doc = document as { version?: unknown; resources?: unknown };
  if (!isObject(doc) || doc.version !== 4 || !Array.isArray(doc.resources))
    throw new Error(
      `not a Terraform state of format version 4 (found version ${JSON.stringify(isObject(doc) ? doc.version : undefined)}): ` +
        "expected terraform.tfstate as Terraform >= 0.12 or OpenTofu write it (`terraform state pull`)",
    );
  checkState(doc);
  const migration: TerraformMigration = { objects: [], notMapped: [] };
  const found: (Omit<MappedObject, "name"> & { nameBase: string; type: string })[] = [];
  const resources = doc.resources as StateResource[];
  for (let ri = 0; ri < resources.length; ri++) {
    const r = resources[ri];
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
    const mapping = own(TERRAFORM_TYPES, r.type ?? "");
    if (!mapping) {
      skip(`${r.type} is not a resource type of netfoundry/ziti that this importer knows`);
      continue;
    }
    for (let ii = 0; ii < instances.length; ii++) {
      const instance = instances[ii];
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
      const where = step(step(step("resources", ri), "instances"), ii);
      const sensitive = sensitivePaths(instance.sensitive_attributes, step(where, "sensitive_attributes"));
      const { inputs, notMapped, secrets } = mapAttributes(mapping, attributes, at, sensitive);
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
        secrets,
        nameBase,
        type: String(r.type),
      });
    }
  }
  // Terraform's names are unique per type only: a name that several types share gets its type too
  // (`service-web`, `intercept-v1-config-web`), so that the program still reads like the configuration.
  const names = new ResourceNames();
  const count = new Map<string, number>();
  for (const f of found) count.set(f.nameBase, (count.get(f.nameBase) ?? 0) + 1);
  for (const { nameBase, type, ...object } of found) {
    const name = count.get(nameBase)! > 1 ? `${type.replace(/^ziti_/, "")}-${nameBase}` : nameBase;
    migration.objects.push({ ...object, name: names.of(name) });
  }
  return migration;
}

/** Terraform's address of an instance: a string key in HCL's quoted form, as Terraform prints it. */
function address(base: string, instance: { index_key?: string | number; deposed?: string }): string {
  const key = instance.index_key;
  const indexed = key === undefined ? base : `${base}[${typeof key === "string" ? hclString(key) : key}]`;
  return instance.deposed ? `${indexed} (deposed ${instance.deposed})` : indexed;
}

/**
 * One object's attributes as its kind's inputs, the attributes that have no counterpart, and the input
 * paths of the sensitive ones.
 */
export function mapAttributes(
  mapping: TypeMapping,
  attributes: Props,
  at: string,
  sensitive: Sensitive = sensitiveNode(),
): { inputs: Props; notMapped: NotMapped[]; secrets: string[][] } {
  const inputs: Props = { ...mapping.fixed };
  const data: Props = {};
  const origin = new Map<string, string>(); // input key -> attribute, to name the attribute in reports
  const def = resourceDefinitions.find((d) => d.kind === mapping.kind)!;
  const root = jsonSchema(def.inputs);
  const top = view(root, root)!;
  const secrets: string[][] = [];
  for (const attribute of Object.keys(attributes)) {
    const value = attributes[attribute];
    if (COMPUTED.has(attribute) || value === null) continue;
    const special = mapping.special && own(mapping.special, attribute);
    const marked = sensitive.children.get(attribute);
    const key = camel(attribute);
    const inData = Boolean(mapping.configType) && !["name", "tags", "configTypeId"].includes(key);
    const entries: [string, unknown][] = special
      ? Object.entries(special(value))
      : [
          [
            key,
            converted(
              value,
              inData ? undefined : view(own(top.properties ?? {}, key), root),
              root,
              marked,
              inData ? ["data", key] : [key],
              secrets,
              !inData,
            ),
          ],
        ];
    for (const [k, v] of entries) {
      origin.set(k, attribute);
      if (special && marked) secrets.push([k]);
      setOwn(inData ? data : inputs, k, v);
    }
  }
  if (mapping.configType) {
    inputs.configTypeName = mapping.configType;
    inputs.data = data;
  }
  const notMapped: NotMapped[] = [];
  const parsed = def.inputs.safeParse(inputs);
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
  // Keys that reach a prototype: zod's records drop `__proto__` silently, the provider refuses both.
  for (const failure of forbiddenKeyFailures(inputs))
    notMapped.push({
      address: at,
      attribute: origin.get(failure.property.split(".")[0]) ?? failure.property,
      reason: `${mapping.kind}.${failure.property}: ${failure.reason}; the provider refuses it at check (kept as it is: fix it in the program)`,
    });
  // A sensitive attribute left out (no counterpart) has nothing to read.
  return { inputs, notMapped, secrets: secrets.filter((p) => Object.hasOwn(inputs, p[0])) };
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
  return terraformProgramWithSecrets(migration).text;
}

/** The program, and the secret config keys it reads (the values Terraform marks sensitive among them). */
export function terraformProgramWithSecrets(migration: TerraformMigration): Program {
  const found: Found[] = migration.objects.map((o) => ({
    def: resourceDefinitions.find((d) => d.kind === o.kind)!,
    id: o.id,
    state: o.inputs,
    name: o.name,
    sensitive: o.secrets,
  }));
  return program(found, {}, migration.notMapped.map(describe));
}

/** One not-mapped entry as a line: `address: reason` or `address attribute: reason`. */
export function describe(entry: NotMapped): string {
  return `${entry.address}${entry.attribute ? ` ${entry.attribute}` : ""}: not mapped: ${entry.reason}`;
}
