// `npm pack` (and `npm publish`) compile the package first (the prepack script) with the checkout's own
// TypeScript. In a fresh clone without `npm ci` that compiler is missing, and the shell would only say
// `tsc: not found`: say what to do instead.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const missing = ["typescript", "@pulumi/pulumi"].filter(
  (name) => !fs.existsSync(path.join(root, "node_modules", name, "package.json")),
);
if (missing.length > 0) {
  process.stderr.write(
    `npm pack compiles the package with the checkout's dev dependencies, and ${missing.join(", ")} ` +
      `${missing.length === 1 ? "is" : "are"} not installed in ${path.join(root, "node_modules")}: ` +
      "run npm ci first (then npm pack).\n",
  );
  process.exit(1);
}
