// A TypeScript program over the provider plugin through the generated Node.js SDK (examples/ts-native,
// importing pulumi-frontdoor-native, built from the generated sdk/native/nodejs by the fixture), run by
// the real CLI and its Node.js language host: the scenario of test/support/sdkProgram.ts.
import * as path from "node:path";
import { REPO_ROOT } from "./peers/index";
import { describeSdkProgram } from "./support/sdkProgram";

describeSdkProgram({
  title: "TypeScript program with the generated Node.js SDK, through the real CLI and the plugin",
  programDir: path.join(REPO_ROOT, "examples", "ts-native"),
  languageHost: "pulumi-language-nodejs",
  namePrefix: "ts-native",
});
