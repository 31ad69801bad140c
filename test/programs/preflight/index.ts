// Test program for test/preflight.test.ts: one object of each API (config `apis`: "frontdoor",
// "edge" or "frontdoor,edge"), so a preview proves the credentials of those APIs.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const apis = (new pulumi.Config().get("apis") ?? "frontdoor,edge").split(",");

if (apis.includes("frontdoor"))
  new frontdoor.AuthProvider("sso", {
    name: "preflight-sso",
    type: "API_KEY",
    data: { header_name: "x-api-key", api_key: "preflight-api-key-0123456789" },
  });

if (apis.includes("edge")) new frontdoor.Identity("device", { name: "preflight-device", type: "Device" });
