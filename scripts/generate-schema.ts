// `npm run schema`: writes schema.json from the zod definitions (provider/schema.ts) and the README's
// generated reference sections from schema.json (provider/docs.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { configTable, reference, replaceGenerated } from "../provider/docs";
import { buildSchema } from "../provider/schema";

const root = path.resolve(__dirname, "..");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const schema = buildSchema(version);
fs.writeFileSync(path.join(root, "schema.json"), `${JSON.stringify(schema, null, 2)}\n`);

const readmePath = path.join(root, "README.md");
let readme = fs.readFileSync(readmePath, "utf8");
readme = replaceGenerated(readme, "config", configTable(schema));
readme = replaceGenerated(readme, "reference", reference(schema));
fs.writeFileSync(readmePath, readme);
console.log("schema.json and README.md reference sections written");
