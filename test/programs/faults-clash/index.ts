// Test program for test/concurrency.test.ts: two auth providers (auth-a, auth-b) and two identities
// (identity-a, identity-b). With config `clash` true (the default), b gets the same unique name as a,
// so one of each pair must fail with a conflict; with `clash` false, b has a name of its own.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const prefix = config.get("prefix") ?? "clash";
const clash = config.getBoolean("clash") ?? true;
const nameOf = (kind: string, key: "a" | "b") => `${prefix}-${kind}-${key === "b" && !clash ? "b" : "a"}`;

const auth = (["a", "b"] as const).map(
  (key) =>
    new frontdoor.AuthProvider(`auth-${key}`, {
      name: nameOf("auth", key),
      type: "API_KEY",
      data: { header_name: "x-api-key", api_key: pulumi.secret(`clash-api-key-0123456789-${key}`) },
    }),
);

const identities = (["a", "b"] as const).map(
  (key) =>
    new frontdoor.Identity(`identity-${key}`, { name: nameOf("identity", key), roleAttributes: ["clash"] }),
);

export const authIds = auth.map((r) => r.id);
export const identityIds = identities.map((r) => r.id);
