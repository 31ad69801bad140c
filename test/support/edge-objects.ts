// One object of every Edge kind, as the lookup tests declare them (mock and real controller), and the
// objects the drift programs need to exist first.
import assert from "node:assert/strict";
import type { Props } from "../../provider/resource";
import { testCa } from "../edge-support";
import type { EdgeClient } from "./edgeClient";

/** One declaration of each kind (names start with `prefix-`), in an order where references exist before use. */
export function edgeObjects(prefix: string): [string, Props][] {
  const ca = testCa(`${prefix} lookup CA`);
  return [
    ["AuthPolicy", { name: `${prefix}-policy`, primary: { updb: { minPasswordLength: 9 } } }],
    [
      "Identity",
      { name: `${prefix}-user`, type: "Device", roleAttributes: ["lk"], enrollment: { ott: true } },
    ],
    ["EdgeRouterPolicy", { name: `${prefix}-erp`, identityRoles: ["#lk"], edgeRouterRoles: ["#all"] }],
    ["Ca", { name: `${prefix}-ca`, certPem: ca.certPem, identityRoles: ["lk"] }],
    ["EdgeRouter", { name: `${prefix}-router`, roleAttributes: ["lk"] }],
    [
      "ExternalJwtSigner",
      {
        name: `${prefix}-signer`,
        issuer: `https://${prefix}.example.com`,
        audience: "lk",
        jwksEndpoint: `https://${prefix}.example.com/jwks`,
      },
    ],
    ["PostureCheck", { name: `${prefix}-mac`, typeId: "MAC", macAddresses: ["00:11:22:33:44:55"] }],
    ["ConfigType", { name: `${prefix}-type.v1`, schema: { type: "object" } }],
    [
      "Config",
      {
        name: `${prefix}-host`,
        configTypeName: "host.v1",
        data: { protocol: "tcp", address: "localhost", port: 8080 },
      },
    ],
    ["Service", { name: `${prefix}-service`, roleAttributes: ["lk"] }],
    [
      "ServicePolicy",
      { name: `${prefix}-dial`, type: "Dial", identityRoles: ["#lk"], serviceRoles: ["#lk"] },
    ],
    ["ServiceEdgeRouterPolicy", { name: `${prefix}-serp`, edgeRouterRoles: ["#all"], serviceRoles: ["#lk"] }],
  ];
}

/** Outputs the API never returns (the resource keeps what the program declared): a lookup has the server's. */
export const DECLARED_ONLY: Record<string, string[]> = {
  Identity: ["type", "enrollment"],
  EdgeRouter: ["reEnrollmentTrigger"],
};

/**
 * The two external JWT signers the full drift program's auth policy names (a controller refuses a policy
 * naming signers that do not exist), made by `admin` as another admin would: their ids.
 */
export async function driftSigners(admin: EdgeClient): Promise<[string, string]> {
  const ids: string[] = [];
  for (const name of ["drift-signer-a", "drift-signer-b"]) {
    const made = await admin.call("POST", "/external-jwt-signers", {
      body: {
        name,
        issuer: `https://${name}.example.com`,
        audience: "drift",
        certPem: testCa(name).certPem,
        enabled: true,
      },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    ids.push(String(made.body.data.id));
  }
  return [ids[0], ids[1]];
}

/** One section of an auth policy's `primary`, by method. */
type PrimaryChanges = {
  cert?: { allowed?: boolean; allowExpiredCerts?: boolean };
  extJwt?: { allowed?: boolean; allowedSigners?: string[] };
  updb?: Partial<
    Record<"allowed" | "requireSpecialChar" | "requireNumberChar" | "requireMixedCase", boolean>
  > &
    Partial<Record<"minPasswordLength" | "maxAttempts" | "lockoutDurationMinutes", number>>;
};

/**
 * An auth policy's `primary` with every field the Edge API has: every method allowed, passwords of 5
 * characters (the swagger's minimum) with no other rule, no lockout; `changes` set per method.
 */
export function fullPrimary(changes: PrimaryChanges = {}) {
  return {
    cert: { allowed: true, allowExpiredCerts: true, ...changes.cert },
    extJwt: { allowed: true, allowedSigners: [] as string[], ...changes.extJwt },
    updb: {
      allowed: true,
      minPasswordLength: 5,
      requireSpecialChar: false,
      requireNumberChar: false,
      requireMixedCase: false,
      maxAttempts: 0,
      lockoutDurationMinutes: 0,
      ...changes.updb,
    },
  };
}
