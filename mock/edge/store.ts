// In-memory collections of the edge mock. Records are plain objects whose field names are the
// API's own (name, roleAttributes, identityRoles, ...), so a test can edit them "behind the back"
// of a provider and see the change through the API.
import { randomBytes } from "node:crypto";
import { invalidField, notFound } from "./envelope";

export interface BaseRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  tags: Record<string, unknown>;
}

/** Ids like the controller's shortids: 9-10 characters of [A-Za-z0-9._-]. */
export function newId(): string {
  return randomBytes(7).toString("base64url").slice(0, 9);
}

/** Stores whose name clash the controller reports in its unique index's words. */
const INDEXED_NAME_STORES = ["identities", "cas"];

export class Collection<T extends BaseRecord> {
  private readonly records = new Map<string, T>();

  constructor(
    /** The URL path segment, e.g. `identities`; also the name used by the in-process helpers. */
    readonly name: string,
    /** Fields accepted in `filter` and reported as `meta.filterableFields`. */
    readonly filterableFields: string[],
  ) {}

  insert(fields: Omit<T, "id" | "createdAt" | "updatedAt"> & { id?: string }): T {
    const now = new Date().toISOString();
    const record = { ...fields, id: fields.id ?? newId(), createdAt: now, updatedAt: now } as T;
    this.records.set(record.id, record);
    return record;
  }

  find(id: string): T | undefined {
    return this.records.get(id);
  }

  /** The record, or a 404 NOT_FOUND answer. */
  require(id: string): T {
    const record = this.records.get(id);
    if (!record) throw notFound();
    return record;
  }

  update(id: string, fields: Partial<T>): T {
    const record = this.require(id);
    Object.assign(record, fields, { updatedAt: new Date().toISOString() });
    return record;
  }

  /** Replaces all fields but the identity and creation time. */
  replace(id: string, fields: Omit<T, "id" | "createdAt" | "updatedAt">): T {
    const old = this.require(id);
    const record = {
      ...fields,
      id,
      createdAt: old.createdAt,
      updatedAt: new Date().toISOString(),
    } as T;
    this.records.set(id, record);
    return record;
  }

  delete(id: string): boolean {
    return this.records.delete(id);
  }

  /** Copies of all records, in creation order (cluster mode: what a node replicates). */
  exportRecords(): T[] {
    return structuredClone(this.all());
  }

  /** Replaces every record with copies of the given ones (cluster mode: a node catching up). */
  importRecords(records: T[]): void {
    this.records.clear();
    for (const record of structuredClone(records)) this.records.set(record.id, record);
  }

  /** All records in creation order. */
  all(): T[] {
    return [...this.records.values()];
  }

  /**
   * Names are unique per store on a controller: 400 COULD_NOT_VALIDATE, cause field `name`. The reason
   * is the one ziti v1.6.0 gives (test/real-name-clash.test.ts): its unique index's words for
   * identities and CAs, "name must be unique" for the other stores.
   */
  assertUniqueName(name: string, exceptId?: string): void {
    for (const record of this.records.values()) {
      if ((record as { name?: unknown }).name === name && record.id !== exceptId) {
        const reason = INDEXED_NAME_STORES.includes(this.name)
          ? `duplicate value '${name}' in unique index on ${this.name} store`
          : "name must be unique";
        throw invalidField("name", reason, name);
      }
    }
  }
}
