// Installs the freshly built package into node_modules/pulumi-frontdoor as a real copy (not a link),
// so examples and test programs import it exactly as users do: Pulumi's closure serializer then
// captures the provider by reference (`require("pulumi-frontdoor/bin/...")`) instead of inlining it.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const target = path.join(root, "node_modules", "pulumi-frontdoor");
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target, { recursive: true });
for (const entry of ["package.json", "schema.json", "README.md", "bin", "mock/package.json"]) {
  const from = path.join(root, entry);
  if (fs.existsSync(from)) fs.cpSync(from, path.join(target, entry), { recursive: true });
}
