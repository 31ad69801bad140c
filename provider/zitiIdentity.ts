// Admin login from a Ziti identity file: the JSON that `ziti edge enroll` and the Ziti SDKs write,
//   {"ztAPI": "https://ctrl:1280/edge/client/v1", "id": {"cert": "pem:...", "key": "pem:...", "ca": "pem:..."}}
// Each `id` value is, as OpenZiti's identity library reads it, `pem:<PEM text>`, `file://<path>` or a
// plain path (relative paths from the working directory, the program's directory under Pulumi). The
// identity gives the client certificate and key (method=cert), the trusted CA bundle, and the
// controller address: its ztAPI is the client API, whose controller also serves the management API.
// Problems name the setting and the field, never a value: the key (and inline JSON) are secrets.
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import { registerSecret } from "./redact";

export interface ZitiIdentity {
  /** The controller addresses of ztAPI and then ztAPIs (the client API path removed), duplicates dropped. */
  edgeUrls: string[];
  certPem: string;
  keyPem: string;
  caPem?: string;
}

/** The two settings an identity can come from; only one may be set. */
export interface IdentitySettings {
  edgeIdentityFile?: string;
  edgeIdentityJson?: string;
}

/** A problem with an identity setting: the setting (`edgeIdentityFile`) and why, without values. */
export class IdentityProblem extends Error {
  constructor(
    readonly setting: "edgeIdentityFile" | "edgeIdentityJson",
    readonly reason: string,
  ) {
    super(`frontdoor:${setting} ${reason}`);
  }
}

const CLIENT_API_PATH = /\/edge\/client\/v1\/?$/;

/**
 * The last identity read (or its problem): `check` runs for every resource of a run, and parsing the
 * certificate and key each time would cost more than the check itself. A changed file is read again.
 */
let last: { key: string; identity?: ZitiIdentity; problem?: IdentityProblem } | undefined;

/** The identity of the settings, or undefined when neither setting is given; throws IdentityProblem. */
export function loadZitiIdentity(settings: IdentitySettings): ZitiIdentity | undefined {
  const { edgeIdentityFile: file, edgeIdentityJson: inline } = settings;
  const key = JSON.stringify([file, inline, file === undefined ? null : modified(file)]);
  if (last?.key !== key) {
    try {
      last = { key, identity: readIdentity(settings) };
    } catch (err) {
      if (!(err instanceof IdentityProblem)) throw err;
      last = { key, problem: err };
    }
  }
  if (last.problem) throw last.problem;
  return last.identity;
}

function modified(file: string): number | null {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

function readIdentity(settings: IdentitySettings): ZitiIdentity | undefined {
  const { edgeIdentityFile: file, edgeIdentityJson: inline } = settings;
  if (file !== undefined && inline !== undefined)
    throw new IdentityProblem("edgeIdentityJson", "and frontdoor:edgeIdentityFile are both set: give one");
  if (file === undefined && inline === undefined) return undefined;
  const setting = file !== undefined ? "edgeIdentityFile" : "edgeIdentityJson";
  let text: string;
  if (file !== undefined) {
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (err) {
      throw new IdentityProblem(setting, `cannot be read: ${file} (${(err as NodeJS.ErrnoException).code})`);
    }
  } else text = inline!;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the error, which may be the key.
    throw new IdentityProblem(setting, "is not valid JSON (a Ziti identity file is a JSON object)");
  }
  const fail = (reason: string): never => {
    throw new IdentityProblem(setting, reason);
  };
  if (!isObject(parsed)) return fail("is not a JSON object");
  const id = parsed.id;
  if (!isObject(id)) return fail('has no "id" object (with cert, key and ca)');
  const value = (field: "cert" | "key" | "ca"): string | undefined => {
    const raw = id[field];
    if (raw === undefined || raw === null || raw === "") return undefined;
    if (typeof raw !== "string") return fail(`has an id.${field} that is not a string`);
    return resolveValue(raw, `id.${field}`, fail);
  };
  const keyPem = value("key");
  // Registered before anything else can fail, so no later message can carry it.
  registerSecret(keyPem);
  for (const line of keyPem?.split(/\r?\n/) ?? []) registerSecret(line.length >= 16 ? line : undefined);
  const certPem = value("cert") ?? fail("has no id.cert (the client certificate)");
  if (keyPem === undefined) return fail("has no id.key (the private key of id.cert)");
  const caPem = value("ca");
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    return fail("has an id.cert that is not a PEM certificate");
  }
  let publicKey: ReturnType<typeof createPublicKey>;
  try {
    publicKey = createPublicKey(createPrivateKey(keyPem));
  } catch {
    return fail("has an id.key that is not a PEM private key");
  }
  const spki = { type: "spki", format: "der" } as const;
  if (!publicKey.export(spki).equals(cert.publicKey.export(spki)))
    fail("has an id.key that is not the private key of id.cert");
  if (caPem !== undefined && !caPem.includes("-----BEGIN CERTIFICATE-----"))
    fail("has an id.ca that holds no PEM certificate");
  return { edgeUrls: controllerUrls(parsed, fail), certPem, keyPem, caPem };
}

/** `pem:<text>`, `file://<path>`, or a path; PEM text without prefix is taken as it is. */
function resolveValue(raw: string, field: string, fail: (reason: string) => never): string {
  if (raw.startsWith("pem:")) return raw.slice("pem:".length);
  if (raw.includes("-----BEGIN")) return raw;
  if (raw.startsWith("engine:"))
    return fail(`has an ${field} in a key engine (hardware token), which is not supported: use a PEM key`);
  const path = raw.startsWith("file://") ? raw.slice("file://".length) : raw;
  try {
    return fs.readFileSync(path, "utf8");
  } catch (err) {
    return fail(
      `has an ${field} naming a file that cannot be read: ${path} (${(err as NodeJS.ErrnoException).code})`,
    );
  }
}

/** ztAPI and every ztAPIs entry (an HA cluster's nodes) without the client API path: controller addresses. */
function controllerUrls(file: Record<string, unknown>, fail: (reason: string) => never): string[] {
  const list = Array.isArray(file.ztAPIs) ? file.ztAPIs : [];
  const apis = [...(file.ztAPI !== undefined && file.ztAPI !== "" ? [file.ztAPI] : []), ...list];
  const urls = apis.map((api) => {
    if (typeof api !== "string") return fail("has a ztAPI/ztAPIs entry that is not a string");
    let url: URL;
    try {
      url = new URL(api);
    } catch {
      return fail(`has a ztAPI/ztAPIs entry that is not a URL: ${api}`);
    }
    return `${url.origin}${url.pathname.replace(CLIENT_API_PATH, "").replace(/\/+$/, "")}`;
  });
  return [...new Set(urls)];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
