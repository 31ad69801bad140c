// Test program for test/bad-input.test.ts: one resource of the kind named by config `kind`, with the
// (invalid) inputs given as JSON in config `inputs`, as a program with a mistake would declare it.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const kind = config.require("kind");
const inputs = config.requireObject<Record<string, unknown>>("inputs");
const Resource = (frontdoor as unknown as Record<string, new (name: string, args: unknown) => unknown>)[kind];
new Resource("bad", inputs);
