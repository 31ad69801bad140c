// The leak scan's mechanism: the actual secret values of a run (given by the test, handed out by the
// server, found at a secret path of the independent table in the state), each searched for in every
// form it may be written in, in every text the run left (state files, stack exports, outputs, logs,
// error messages, the serialized provider). Independent of provider/redact.ts, which it checks.
import { isSecret } from "../../../harness/secrets";
import type { MockServer } from "../../../mock/server";
import { RESOURCE_SECRETS, SERVER_SECRET_FIELDS } from "./secrets";

/** Shorter values would match ordinary text by chance; no secret of the tests is this short. */
const MIN_SECRET = 8;
/** A PEM body line shorter than this (the last one) is too short to be telling. */
const MIN_PEM_LINE = 16;

/** Every form a secret may be written in: plain, JSON-escaped, base64(url), hex, URL-encoded; PEM bodies. */
export function encodedForms(secret: string): string[] {
  const forms = new Set<string>();
  const add = (text: string) => {
    if (text.length >= MIN_SECRET) forms.add(text);
  };
  const bytes = Buffer.from(secret, "utf8");
  add(secret);
  add(JSON.stringify(secret).slice(1, -1));
  add(JSON.stringify(JSON.stringify(secret)).slice(3, -3)); // JSON inside JSON (a stringified input)
  add(bytes.toString("base64"));
  add(bytes.toString("base64").replace(/=+$/, ""));
  add(bytes.toString("base64url"));
  add(bytes.toString("hex"));
  add(bytes.toString("hex").toUpperCase());
  add(encodeURIComponent(secret));
  add(new URLSearchParams({ s: secret }).toString().slice(2));
  // PEM: the base64 body without its BEGIN/END lines, line by line and joined.
  if (/-----BEGIN [A-Z0-9 ]+-----/.test(secret)) {
    const body = secret
      .split(/\r?\n/)
      .filter((line) => line && !line.startsWith("-----"))
      .map((line) => line.trim());
    for (const line of body) if (line.length >= MIN_PEM_LINE) forms.add(line);
    add(body.join(""));
  }
  return [...forms];
}

/** A value to look for, and what it is (for the failure message; never the value itself). */
export interface KnownSecret {
  label: string;
  value: string;
}

/** Each hit as `where: label (form n)`; empty when nothing leaked. */
export function findLeaks(secrets: Iterable<KnownSecret>, texts: Iterable<[string, string]>): string[] {
  const hits: string[] = [];
  const all = [...texts];
  for (const { label, value } of secrets) {
    if (value.length < MIN_SECRET) continue;
    const forms = encodedForms(value);
    for (const [where, text] of all) {
      const i = forms.findIndex((form) => text.includes(form));
      if (i >= 0) hits.push(`${where}: ${label} (form ${i}: ${forms[i].slice(0, 6)}...)`);
    }
  }
  return hits;
}

/** The strings at a dotted path (`items.` steps into arrays), secret markers unwrapped. */
export function valuesAtPath(value: unknown, path: string): string[] {
  const plain = isSecret(value) ? value.value : value;
  if (path === "") return typeof plain === "string" ? [plain] : [];
  if (Array.isArray(plain)) return plain.flatMap((item) => valuesAtPath(item, path));
  if (plain === null || typeof plain !== "object") return [];
  const [head, ...rest] = path.split(".");
  if (head === "items" && Array.isArray((plain as Record<string, unknown>).items))
    return valuesAtPath((plain as Record<string, unknown>).items, rest.join("."));
  return valuesAtPath((plain as Record<string, unknown>)[head], rest.join("."));
}

/** The secrets the mock handed out or holds (see SERVER_SECRET_FIELDS), and its demo credentials. */
export function serverSecrets(mock: MockServer): KnownSecret[] {
  const out: KnownSecret[] = [];
  const { frontdoorId, otherFrontdoorId, ...creds } = mock.credentials;
  for (const [key, value] of Object.entries(creds))
    if (/token$|secret|password/i.test(key) && !/url/i.test(key))
      out.push({ label: `mock credential ${key}`, value: String(value) });
  for (const id of [frontdoorId, otherFrontdoorId])
    for (const [collection, paths] of Object.entries(SERVER_SECRET_FIELDS.frontdoor))
      for (const record of mock.frontdoor.list(id, collection as keyof typeof SERVER_SECRET_FIELDS.frontdoor))
        for (const path of paths)
          for (const value of valuesAtPath(record, path))
            out.push({ label: `frontdoor ${collection} ${record.id} ${path}`, value });
  for (const [collection, paths] of Object.entries(SERVER_SECRET_FIELDS.edge))
    for (const record of mock.edge.list(collection as keyof typeof SERVER_SECRET_FIELDS.edge))
      for (const path of paths)
        for (const value of valuesAtPath(record, path))
          out.push({ label: `edge ${collection} ${record.id} ${path}`, value });
  return out;
}

/**
 * The values at the table's secret paths of one resource of a state (the harness's, decrypted, or a
 * `pulumi stack export`, where a value still readable at such a path is a leak by itself).
 */
export function tableSecrets(resource: {
  type: string;
  name?: string;
  urn?: string;
  inputs?: unknown;
  outputs?: unknown;
}): KnownSecret[] {
  const kind = /frontdoor:(\w+)$/.exec(resource.type)?.[1];
  const fields = kind ? RESOURCE_SECRETS[kind] : undefined;
  if (!fields) return [];
  const name = resource.name ?? resource.urn?.split("::").pop();
  const found: KnownSecret[] = [];
  for (const [side, paths, value] of [
    ["input", fields.inputs, resource.inputs],
    ["output", fields.outputs, resource.outputs],
  ] as const)
    for (const path of paths)
      for (const v of valuesAtPath(value, path))
        found.push({ label: `${kind} ${name} ${side} ${path}`, value: v });
  return found;
}
