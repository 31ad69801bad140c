// `npm run schema` (after schema.json): writes sdk/types.generated.ts from the zod definitions
// (provider/sdkTypes.ts), the plain TypeScript types of the SDK's public surface.
import * as fs from "node:fs";
import * as path from "node:path";
import { sdkTypesSource } from "../provider/sdkTypes";

export const SDK_TYPES_FILE = path.resolve(__dirname, "..", "sdk", "types.generated.ts");
fs.writeFileSync(SDK_TYPES_FILE, sdkTypesSource());
console.log("sdk/types.generated.ts written");
