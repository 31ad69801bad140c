// Test program for test/external-jwt-login.test.ts: one identity (config `identityName`); the
// provider's login (an external JWT) comes from the stack's frontdoor:* settings and the environment.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const device = new frontdoor.Identity("device", { name: config.require("identityName"), type: "Device" });

export const deviceId = device.id;
