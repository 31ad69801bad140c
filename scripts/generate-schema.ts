// `npm run schema`: writes schema.json from the zod definitions (see provider/schema.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { buildSchema } from "../provider/schema";

const root = path.resolve(__dirname, "..");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
fs.writeFileSync(path.join(root, "schema.json"), `${JSON.stringify(buildSchema(version), null, 2)}\n`);
console.log("schema.json written");
