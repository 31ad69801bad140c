// Test program for test/real-field-matrix.test.ts: declares the field matrix from config.
//   resources: JSON [[kind, pulumiName, inputs, secretInputNames], ...] (object names already prefixed);
//   secrets (secret): JSON {pulumiName: {input: value}}: the values of those secret inputs.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

type Declaration = [string, string, Record<string, unknown>, string[]];
const config = new pulumi.Config();
const resources = config.requireObject<Declaration[]>("resources");
const secrets = config.getSecretObject<Record<string, Record<string, string>>>("secrets");
const kinds = frontdoor as unknown as Record<
  string,
  new (
    name: string,
    args: unknown,
  ) => pulumi.CustomResource
>;

export const ids: Record<string, pulumi.Output<string>> = {};
for (const [kind, name, inputs, secretNames] of resources) {
  const args: Record<string, unknown> = { ...inputs };
  for (const key of secretNames) args[key] = secrets?.apply((all) => all[name][key]);
  ids[name] = new kinds[kind](name, args).id;
}
