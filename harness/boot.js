// Fast start for runHarness: a `.ts` require hook that transpiles with TypeScript (like ts-node
// --transpile-only) but caches the output on disk, so a warm run loads neither ts-node nor
// typescript (~0.5 s saved per run; the test suite runs the harness many times).
// Usage: node harness/boot.js <cli args>
//        node harness/boot.js --program   (the program process the harness starts: programChild.ts)
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const cacheDir = path.join(os.tmpdir(), `pulumi-frontdoor-harness-ts-${process.getuid?.() ?? "u"}`);
let ts;

require.extensions[".ts"] = (module, filename) => {
  const source = fs.readFileSync(filename, "utf8");
  const hash = crypto.createHash("sha256").update(filename).update("\0").update(source).digest("hex");
  const cached = path.join(cacheDir, `${hash}.js`);
  let js;
  try {
    js = fs.readFileSync(cached, "utf8");
  } catch {
    ts ??= require("typescript");
    js = ts.transpileModule(source, {
      fileName: filename,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        inlineSourceMap: true,
      },
    }).outputText;
    fs.mkdirSync(cacheDir, { recursive: true });
    // Write-then-rename: concurrent runs never read a half-written file.
    const tmp = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, js);
    fs.renameSync(tmp, cached);
  }
  module._compile(js, filename);
};

require(process.argv[2] === "--program" ? "./programChild.ts" : "./cli.ts");
