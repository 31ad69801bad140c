// In-memory state of the Frontdoor mock: frontdoors, each with four collections of plain records.
// Records are kept in the shape GET-by-id answers (plus internal bookkeeping kept elsewhere), so
// `patch` behind the API's back changes exactly what a later GET shows.
import { randomUUID } from "node:crypto";
import { type CertificateAuthority, createIntermediateCa } from "../pki";
import { type JsonObject, notFound } from "./http";

export const COLLECTIONS = [
  "auth-providers",
  "client-certificates",
  "certificate-request-tokens",
  "custom-frontends",
] as const;
export type Collection = (typeof COLLECTIONS)[number];

export function isCollection(name: string): name is Collection {
  return (COLLECTIONS as readonly string[]).includes(name);
}

export class FrontdoorState {
  readonly collections = new Map<Collection, Map<string, JsonObject>>(
    COLLECTIONS.map((name) => [name, new Map<string, JsonObject>()]),
  );
  private intermediateCa?: CertificateAuthority;

  /** @internal (node-forge types: kept out of the shipped declarations) */
  constructor(
    readonly id: string,
    private readonly rootCa: CertificateAuthority,
  ) {}

  /**
   * The per-frontdoor intermediate CA that signs generated client certificates (made on first use).
   * @internal (node-forge types: kept out of the shipped declarations)
   */
  get ca(): CertificateAuthority {
    this.intermediateCa ??= createIntermediateCa(this.rootCa, `Frontdoor ${this.id} Client CA`);
    return this.intermediateCa;
  }

  collection(name: Collection): Map<string, JsonObject> {
    return this.collections.get(name)!;
  }

  /** The record, or a 404 naming what is missing. */
  require(name: Collection, id: string, what: string): JsonObject {
    const record = this.collection(name).get(id);
    if (!record) throw notFound(`${what} ${id} not found`);
    return record;
  }

  insert(name: Collection, record: JsonObject): JsonObject {
    this.collection(name).set(record.id as string, record);
    return record;
  }
}

export const newId = () => randomUUID();
export const nowIso = (ms = Date.now()) => new Date(ms).toISOString();
