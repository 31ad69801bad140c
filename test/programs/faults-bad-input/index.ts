// Test program for test/bad-input.test.ts and test/secrets.test.ts: one resource of the kind named by config `kind`, with the
// inputs given as plain JSON in config `inputs`: invalid ones, as a program with a mistake would declare
// them, or valid ones with secrets given as plain values.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const kind = config.require("kind");
const inputs = config.requireObject<Record<string, unknown>>("inputs");
const Resource = (frontdoor as unknown as Record<string, new (name: string, args: unknown) => unknown>)[kind];
new Resource("bad", inputs);
