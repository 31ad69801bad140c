// `npm run schema`: writes schema.json from the zod definitions (provider/schema.ts), and the reference
// pages under docs/reference/ from schema.json and scripts/reference-text.md (provider/docs.ts). Pages
// that are no longer generated (a kind or function removed) are deleted.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseReferenceText, REFERENCE_TEXT, referencePages } from "../provider/docs";
import { pluginDownloadUrl } from "../provider/repository";
import { buildSchema } from "../provider/schema";

const root = path.resolve(__dirname, "..");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
// FRONTDOOR_PLUGIN_DOWNLOAD_URL overrides the release assets' URL (provider/repository.ts).
const schema = buildSchema(version, pluginDownloadUrl());
fs.writeFileSync(path.join(root, "schema.json"), `${JSON.stringify(schema, null, 2)}\n`);

const referenceDir = path.join(root, "docs", "reference");
const pages = referencePages(JSON.parse(JSON.stringify(schema)), {
  text: parseReferenceText(fs.readFileSync(path.join(root, REFERENCE_TEXT), "utf8")),
  sdkExports: new Set(Object.keys(require("../sdk"))),
  parseYaml: require("js-yaml").load,
});
fs.rmSync(referenceDir, { recursive: true, force: true });
for (const [file, text] of pages) {
  fs.mkdirSync(path.dirname(path.join(referenceDir, file)), { recursive: true });
  fs.writeFileSync(path.join(referenceDir, file), text);
}
console.log(`schema.json and ${pages.size} pages under docs/reference/ written`);
