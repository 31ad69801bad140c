// Every secret output of the independent table (test/support/oracles/secrets.ts: resource outputs and
// function results the specs call secret) produced at once, for each host to prove it marks them: one
// resource per kind with a secret output, one call per function with a secret result, against the mock
// (TLS, for enrollIdentity). The plugin's gRPC test (test/plugin-secrets.test.ts), the real CLI's YAML
// program and the dynamic host's TypeScript program (test/secret-paths.test.ts) all take their cases from
// here, and `coverageGaps` fails each of them when the table names a kind or function no case makes.
// Secret inputs are given as plain values: marking them is then the provider's work, not the program's.
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import * as path from "node:path";
import type { MockServer } from "../../mock/server";
import { testCa } from "../edge-support";
import { EdgeClient } from "./edgeClient";
import type { KnownSecret } from "./oracles/leaks";
import { FUNCTION_SECRETS, RESOURCE_SECRETS } from "./oracles/secrets";

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export interface ResourceCase {
  /** The resource's name in the program (and the stack output prefix). */
  name: string;
  kind: string;
  inputs: Record<string, unknown>;
}

export interface InvokeCase {
  name: string;
  fn: string;
  args: Record<string, unknown>;
  /**
   * The table paths this call produces, when not all of the function's (an OIDC auth provider has a
   * `data.client_secret`, an API key one a `data.api_key`): the YAML program reads only these.
   */
  paths?: string[];
}

/** The table output paths a case answers for. */
export const casePaths = (i: InvokeCase): string[] => i.paths ?? FUNCTION_SECRETS[i.fn].outputs;

export interface SecretCases {
  resources: ResourceCase[];
  invokes: InvokeCase[];
  /** The secret values the test itself gives (plain inputs the table calls secret), for the leak scans. */
  given: KnownSecret[];
}

/**
 * Table outputs that no call can produce, and why: a case that produces no value at a table path
 * would make its check vacuous, so every other path must carry a value.
 */
export const NOT_PRODUCED: Record<string, string> = {
  "getCa privateKeyPem":
    "the CA's private key is an input of the program's Ca resource; the controller never has it, and a lookup reads the controller",
  "getCas items.privateKeyPem":
    "the CA's private key is an input of the program's Ca resource; the controller never has it, and a lookup reads the controller",
};

/** Kinds and functions of the table that have secret outputs, none of which any case makes. */
export function coverageGaps(cases: Pick<SecretCases, "resources" | "invokes">): string[] {
  const gaps: string[] = [];
  for (const [kind, fields] of Object.entries(RESOURCE_SECRETS))
    if (fields.outputs.length && !cases.resources.some((r) => r.kind === kind))
      gaps.push(`resource ${kind} (${fields.outputs.join(", ")}): no case makes one`);
  for (const [fn, fields] of Object.entries(FUNCTION_SECRETS))
    if (fields.outputs.length && !cases.invokes.some((i) => i.fn === fn))
      gaps.push(`function ${fn} (${fields.outputs.join(", ")}): no case calls it`);
  return gaps;
}

/**
 * The objects the lookups find and the identity enrollIdentity enrolls, made on the mock through its
 * API (as the console would), and the cases. `prefix` keeps the names of two runs on one mock apart.
 */
export async function prepareSecretCases(mock: MockServer, prefix: string): Promise<SecretCases> {
  const edge = new EdgeClient(mock.url, mock.caPem);
  await edge.login(mock.credentials.edgeUsername, mock.credentials.edgePassword);
  const made = async (collection: string, body: Record<string, unknown>) => {
    const reply = await edge.call("POST", `/${collection}`, { body });
    if (reply.status !== 201)
      throw new Error(`POST /${collection}: ${reply.status} ${JSON.stringify(reply.body)}`);
    const got = await edge.call("GET", `/${collection}/${reply.body.data.id}`);
    return got.body.data;
  };
  const lookedUp = `${prefix}-found`;
  await made("identities", { name: lookedUp, type: "User", isAdmin: false, enrollment: { ott: true } });
  await made("edge-routers", { name: `${prefix}-found-router` });
  await made("cas", {
    name: `${prefix}-found-ca`,
    certPem: testCa(`${prefix} found CA`).certPem,
    isAutoCaEnrollmentEnabled: false,
    isOttCaEnrollmentEnabled: true,
    isAuthEnabled: false,
    identityRoles: [],
  });
  const enrollee = await made("identities", {
    name: `${prefix}-enrollee`,
    type: "Device",
    isAdmin: false,
    enrollment: { ott: true },
  });
  // Frontdoor objects made through its API (as the console would), for the Frontdoor lookups.
  const fd = (collection: string, body: Record<string, unknown>) =>
    new Promise<void>((resolve, reject) => {
      const url = new URL(`${mock.url}/frontdoor/${mock.credentials.frontdoorId}/${collection}`);
      const headers = {
        authorization: `Bearer ${mock.credentials.frontdoorToken}`,
        "content-type": "application/json",
      };
      const send = url.protocol === "https:" ? https.request : http.request;
      const req = send(url, { method: "POST", headers, ca: mock.caPem }, (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () =>
          (res.statusCode ?? 500) < 300
            ? resolve()
            : reject(new Error(`POST ${collection}: ${res.statusCode} ${text}`)),
        );
      });
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
  const foundSecret = `${prefix}-found-client-secret-6502`;
  const foundKey = `${prefix}-found-api-key-6809-abcdef`;
  await fd("auth-providers", {
    name: `${prefix}-found-sso`,
    type: "OIDC",
    data: { issuer: "https://idp.example.com/", client_id: "found", client_secret: foundSecret },
  });
  await fd("auth-providers", {
    name: `${prefix}-found-key`,
    type: "API_KEY",
    data: { header_name: "x-api-key", api_key: foundKey },
  });
  await fd("certificate-request-tokens", { name: `${prefix}-found-token` });
  const ca = testCa(`${prefix} CA`);
  const clientSecret = `${prefix}-client-secret-5150`;
  const apiKey = `${prefix}-api-key-8086-abcdef`;
  return {
    resources: [
      {
        name: "sso",
        kind: "AuthProvider",
        inputs: {
          name: `${prefix}-sso`,
          type: "OIDC",
          data: {
            issuer: "https://login.example.com/realms/corp",
            client_id: "fd",
            client_secret: clientSecret,
          },
        },
      },
      {
        name: "partner",
        kind: "AuthProvider",
        inputs: {
          name: `${prefix}-partner`,
          type: "API_KEY",
          data: { header_name: "x-api-key", api_key: apiKey },
        },
      },
      { name: "deviceToken", kind: "CertificateRequestToken", inputs: { name: `${prefix}-device` } },
      { name: "keys", kind: "KeyPair", inputs: { commonName: `${prefix}-device` } },
      { name: "laptop", kind: "Identity", inputs: { name: `${prefix}-laptop`, enrollment: { ott: true } } },
      {
        name: "corpCa",
        kind: "Ca",
        inputs: { name: `${prefix}-ca`, certPem: ca.certPem, privateKeyPem: ca.keyPem },
      },
      { name: "router", kind: "EdgeRouter", inputs: { name: `${prefix}-router` } },
    ],
    invokes: [
      { name: "enrolled", fn: "enrollIdentity", args: { jwt: enrollee.enrollment.ott.jwt } },
      { name: "foundIdentity", fn: "getIdentity", args: { name: lookedUp } },
      { name: "foundIdentities", fn: "getIdentities", args: { filter: `name = "${lookedUp}"` } },
      { name: "foundRouter", fn: "getEdgeRouter", args: { name: `${prefix}-found-router` } },
      { name: "foundRouters", fn: "getEdgeRouters", args: { filter: `name = "${prefix}-found-router"` } },
      { name: "foundCa", fn: "getCa", args: { name: `${prefix}-found-ca` } },
      { name: "foundCas", fn: "getCas", args: { filter: `name = "${prefix}-found-ca"` } },
      {
        name: "foundSso",
        fn: "getAuthProvider",
        args: { name: `${prefix}-found-sso` },
        paths: ["data.client_secret"],
      },
      {
        name: "foundKey",
        fn: "getAuthProvider",
        args: { name: `${prefix}-found-key` },
        paths: ["data.api_key"],
      },
      // OIDC sorts after API_KEY: the first item is of the type whose secret the case reads.
      {
        name: "foundOidcFirst",
        fn: "getAuthProviders",
        args: { sort: "type,desc" },
        paths: ["items.data.client_secret"],
      },
      {
        name: "foundKeyFirst",
        fn: "getAuthProviders",
        args: { sort: "type,asc" },
        paths: ["items.data.api_key"],
      },
      { name: "foundToken", fn: "getCertificateRequestToken", args: { name: `${prefix}-found-token` } },
      { name: "foundTokens", fn: "getCertificateRequestTokens", args: {} },
    ],
    given: [
      { label: "given data.client_secret", value: clientSecret },
      { label: "given data.api_key", value: apiKey },
      { label: "given Ca privateKeyPem", value: ca.keyPem },
      { label: "given enrollIdentity jwt", value: enrollee.enrollment.ott.jwt },
      { label: "given found data.client_secret", value: foundSecret },
      { label: "given found data.api_key", value: foundKey },
    ],
  };
}

/** A value found at a table path: whether a secret marker was met on the way, and its text if readable. */
export interface Found {
  marked: boolean;
  /** The plain text (undefined for a state file's ciphertext). */
  value?: string;
}

/** The values at a dotted path (`items.` steps into arrays), noting the secret markers met. */
export function foundAt(value: unknown, dotted: string, marked = false): Found[] {
  if (isMarker(value)) {
    const plain = markerValue(value);
    return plain === CIPHERTEXT ? [{ marked: true }] : foundAt(plain, dotted, true);
  }
  if (dotted === "") return value === undefined || value === null ? [] : [{ marked, value: String(value) }];
  if (Array.isArray(value)) return value.flatMap((item) => foundAt(item, dotted, marked));
  if (value === null || typeof value !== "object") return [];
  const [head, ...rest] = dotted.split(".");
  return foundAt((value as Record<string, unknown>)[head], rest.join("."), marked);
}

function isMarker(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

/**
 * The answers of one host, checked against the table: `answer` notes each table output path of its
 * resource kind or function that carries a value unmarked; `problems` adds each table path that no
 * answer of a kind or function carried (unless NOT_PRODUCED: a path without a value is checked by
 * nothing). A resource's nested secret leaf may be kept in `secretValues` (provider/secretValues.ts).
 */
export class SecretMarks {
  private readonly unmarked: string[] = [];
  private readonly produced = new Set<string>();
  private readonly asked = new Set<string>();
  /** The plain texts found at secret paths (for the leak scans). */
  readonly found: KnownSecret[] = [];

  answer(side: "resource" | "function", owner: string, outputs: unknown, label: string): void {
    const table = side === "resource" ? RESOURCE_SECRETS : FUNCTION_SECRETS;
    for (const dotted of table[owner]?.outputs ?? []) {
      this.asked.add(`${owner} ${dotted}`);
      const found = foundAt(outputs, dotted);
      if (side === "resource" && dotted.includes("."))
        found.push(...keptLeaf((outputs as Record<string, unknown> | undefined)?.secretValues, dotted));
      if (found.length) this.produced.add(`${owner} ${dotted}`);
      if (found.some((f) => !f.marked)) this.unmarked.push(`${label}: ${dotted} is not marked secret`);
      for (const f of found) if (f.value) this.found.push({ label: `${label} ${dotted}`, value: f.value });
    }
  }

  problems(): string[] {
    const vacuous = [...this.asked]
      .filter((key) => !this.produced.has(key) && !NOT_PRODUCED[key])
      .map((key) => `${key}: no answer carried a value (the check would be vacuous)`);
    return [...this.unmarked, ...vacuous];
  }
}

/** A nested leaf kept in `secretValues` (an object keyed by dotted path): marked when the object or the leaf is. */
function keptLeaf(kept: unknown, dotted: string): Found[] {
  if (kept === undefined || kept === null) return [];
  const whole = isMarker(kept);
  const plain = whole ? markerValue(kept) : kept;
  if (plain === CIPHERTEXT) return [{ marked: true }];
  const leaf = (plain as Record<string, unknown>)?.[dotted];
  return leaf === undefined || leaf === null ? [] : foundAt(leaf, "", whole);
}

const CIPHERTEXT = Symbol("ciphertext");

/** A marker's value: `value` (on the wire, in the harness's state), `plaintext` (JSON text, in `pulumi stack export --show-secrets`), or only a ciphertext. */
function markerValue(marker: unknown): unknown {
  const inner = marker as Record<string, unknown>;
  if ("plaintext" in inner) return JSON.parse(String(inner.plaintext));
  if ("value" in inner) return inner.value;
  return CIPHERTEXT;
}

/** The program files of a case list: a YAML program for the plugin (see test/secret-paths.test.ts). */
export function yamlProgram(
  dir: string,
  cases: Pick<SecretCases, "resources" | "invokes">,
  version: string,
): void {
  const yaml: { dump(value: unknown): string } = require("js-yaml");
  const resources: Record<string, unknown> = {};
  for (const r of cases.resources)
    resources[r.name] = { type: `frontdoor:index:${r.kind}`, properties: r.inputs, options: { version } };
  const variables: Record<string, unknown> = {};
  const outputs: Record<string, string> = {};
  for (const i of cases.invokes) {
    variables[i.name] = { "fn::invoke": { function: `frontdoor:index:${i.fn}`, arguments: i.args } };
    for (const dotted of casePaths(i)) {
      if (NOT_PRODUCED[`${i.fn} ${dotted}`]) continue;
      const access = dotted.startsWith("items.") ? `items[0].${dotted.slice(6)}` : dotted;
      outputs[outputName(i.name, dotted)] = `\${${i.name}.${access}}`;
    }
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    yaml.dump({ name: "secret-paths", runtime: "yaml", resources, variables, outputs }),
  );
}

/** The stack output that holds one function result's table path. */
export function outputName(invoke: string, dotted: string): string {
  return `${invoke}_${dotted.replace(/\./g, "_")}`;
}
