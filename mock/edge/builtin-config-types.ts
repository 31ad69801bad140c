// The config types a controller creates at first boot, with their fixed ids and JSON schemas exactly
// as a real controller v1.6.0 serves them from `GET /config-types`, kept verbatim as data in
// builtin-config-types.v1.6.0.json. v1.5.0 serves the same, but its intercept.v1 has no
// allowedSourceAddresses. Configs of these types are validated against them like any other type's.
// test/config-type-schemas.test.ts compares them live with both releases.
import V1_6_0 from "./builtin-config-types.v1.6.0.json";

export type MockRelease = "v1.6.0" | "v1.5.0";

export interface BuiltInConfigType {
  id: string;
  name: string;
  schema: Record<string, unknown>;
}

/** The built-in config types of the release the mock imitates (a fresh copy: callers may change it). */
export function builtInConfigTypes(release: MockRelease): BuiltInConfigType[] {
  const types: BuiltInConfigType[] = structuredClone(V1_6_0);
  if (release === "v1.5.0") {
    const intercept = types.find((t) => t.name === "intercept.v1")?.schema as {
      properties: Record<string, unknown>;
    };
    delete intercept.properties.allowedSourceAddresses;
  }
  return types;
}
