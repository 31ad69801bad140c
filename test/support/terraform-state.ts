// The Terraform state fixture (test/terraform/ziti.tfstate.template.json): a state of format version 4
// as Terraform writes it for resources of the OpenZiti Terraform provider (netfoundry/ziti), their
// attributes as the provider's documented resource schemas (docs/resources/<type>.md) name them, with
// placeholders for what only exists at test time: `{{id:<address>}}` (the object's id on the controller),
// `{{pem:ca}}` (the CA certificate) and `{{secret:<name>}}` (sensitive values Terraform keeps in its state).
import * as fs from "node:fs";
import * as path from "node:path";

const TEMPLATE = path.join(__dirname, "..", "terraform", "ziti.tfstate.template.json");
const PLACEHOLDER = /\{\{([a-z]+:[^}]+)\}\}/g;

/** The placeholders of the template, e.g. `id:ziti_identity.alice`. */
export function terraformPlaceholders(): string[] {
  return [...new Set([...fs.readFileSync(TEMPLATE, "utf8").matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/** The fixture state with every placeholder filled in from `values` (each one must be given). */
export function terraformState(values: Record<string, string>): unknown {
  const text = fs.readFileSync(TEMPLATE, "utf8").replace(PLACEHOLDER, (_m, key: string) => {
    if (values[key] === undefined) throw new Error(`no value for {{${key}}} of ${TEMPLATE}`);
    return JSON.stringify(values[key]).slice(1, -1);
  });
  return JSON.parse(text);
}
