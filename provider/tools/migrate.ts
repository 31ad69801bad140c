// Moving a stack from the dynamic provider to the provider plugin without recreating anything: the
// dynamic stack's state (`pulumi stack export`) names every object; this turns it into Pulumi's import
// file for the plugin's types, keeping each resource's name, so `pulumi import --file` adopts the same
// objects under `frontdoor:index:<Kind>` (no create, no delete). See docs/guides/native-plugin.md.

import { PACKAGE } from "../packageName";
import type { Props } from "../resource";
import { resourceDefinitions } from "../resources/all";
import { importIdOf } from "../resources/common";
import type { ImportFile } from "./importSnippets";
import { checkJsonData, field, isObject, refuse, step } from "./stateInput";

const DYNAMIC_TYPE = /^pulumi-nodejs:dynamic\/frontdoor:(\w+)$/;

export interface Migration {
  file: ImportFile;
  /**
   * The dynamic resources' URNs, to forget afterwards (`pulumi state delete`), dependents first, and
   * last the dynamic provider's own provider resource (else the next up would delete it: a change).
   */
  dynamicUrns: string[];
  /** Resources that cannot be imported, with the reason (a KeyPair lives only in its state). */
  skipped: { urn: string; reason: string }[];
}

export function migrationFromState(document: unknown, version?: string): Migration {
  const doc = document as { deployment?: { resources?: unknown[] } };
  const resources = isObject(doc) && isObject(doc.deployment) ? doc.deployment.resources : undefined;
  if (!Array.isArray(resources)) throw new Error("not a stack state: expected `pulumi stack export` output");
  checkState(resources);
  const migration: Migration = { file: { resources: [] }, dynamicUrns: [], skipped: [] };
  const providers: string[] = [];
  for (const r of resources as { urn: string; type: string; id?: string; outputs?: Props }[]) {
    if (r.type === "pulumi:providers:pulumi-nodejs") providers.push(r.urn);
    const kind = DYNAMIC_TYPE.exec(r.type ?? "")?.[1];
    if (!kind) continue;
    const def = resourceDefinitions.find((d) => d.kind === kind);
    if (!r.urn.includes("::")) refuse(r.urn, "not a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`)");
    if (!def || typeof r.id !== "string" || !r.id) {
      migration.skipped.push({ urn: r.urn, reason: `no ${kind} with an id` });
      continue;
    }
    migration.dynamicUrns.unshift(r.urn); // the state lists dependencies first: dependents go first
    if (def.api === "none") {
      migration.skipped.push({
        urn: r.urn,
        reason: `a ${kind} exists only in its state and cannot be imported: declare it anew (a new key)`,
      });
      continue;
    }
    migration.file.resources.push({
      type: `${PACKAGE}:index:${kind}`,
      name: r.urn.split("::").pop()!,
      id: importIdOf(def.api, r.id, r.outputs?.frontdoorId),
      ...(version ? { version } : {}),
    });
  }
  migration.dynamicUrns.push(...providers);
  return migration;
}

/** Refuses resources of a shape `pulumi stack export` never writes, naming the place; deep values too. */
function checkState(resources: unknown[]): void {
  checkJsonData(resources, "deployment.resources");
  for (let i = 0; i < resources.length; i++) {
    const r = resources[i];
    const at = step("deployment.resources", i);
    if (!isObject(r)) refuse(at, `expected an object, found ${r === null ? "null" : typeof r}`);
    field(r, "urn", at, "string", false);
    field(r, "type", at, "string", false);
    field(r, "outputs", at, "object");
  }
}
