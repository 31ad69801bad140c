// The docs: README.md stays short and documents the test command CI runs; the reference pages under
// docs/reference/ are exactly what `npm run schema` generates (one per resource kind and per function,
// none left over); every TypeScript program in README.md and docs/ compiles, strict, against this
// checkout's SDK as a user's project would import it (programs of the plugin's SDK against the one
// generated from schema.json, sdk/native: without Go they skip, loudly, named); and every relative
// link finds its file and heading.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { parseReferenceText, REFERENCE_TEXT, referencePages } from "../provider/docs";
import { functionDefinitions } from "../provider/functions";
import { isRetryableStatus } from "../provider/http/retry";
import { resourceDefinitions } from "../provider/resources/all";
import { useNativeSdks } from "./support/fixtures";
import {
  type CodeBlock,
  codeBlocks,
  headingAnchors,
  links,
  markdownFiles,
  proseOnly,
} from "./support/markdown";

const root = path.resolve(__dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const docFiles = ["README.md", ...markdownFiles(root, "docs")];
/** Every page a user may read: the docs, and the READMEs of the examples, the mock and the harness. */
const pageFiles = [
  ...docFiles,
  ...["examples", "mock", "harness"].flatMap((dir) => markdownFiles(root, dir)),
];
/** Sources whose comments and descriptions point into the docs (schema.json's descriptions come from them). */
const SOURCE_DIRS = ["provider", "mock", "harness", "scripts", "sdk"];

function generated(): Map<string, string> {
  return referencePages(JSON.parse(read("schema.json")), {
    text: parseReferenceText(read(REFERENCE_TEXT)),
    sdkExports: new Set(Object.keys(require("../sdk"))),
    parseYaml: require("js-yaml").load,
  });
}

describe("docs", () => {
  describe("README.md", () => {
    it("stays under 25 KB", () => {
      const size = fs.statSync(path.join(root, "README.md")).size;
      assert.ok(size < 25 * 1024, `README.md is ${size} bytes`);
    });

    it("shows the two commands on its first screen, and CI runs the test command it documents", () => {
      const firstScreen = read("README.md").split("\n").slice(0, 45).join("\n");
      assert.match(firstScreen, /npm ci && npm run demo/);
      assert.match(firstScreen, /npm ci && npm test/);
      assert.match(firstScreen, /^npm install .*pulumi-frontdoor.*\.tgz/m, "the quick start's install line");
      assert.match(
        firstScreen,
        /```ts[^\n]*\nimport \* as pulumi from "@pulumi\/pulumi";\nimport \* as frontdoor/,
      );
      assert.match(read(".ci/run"), /^npm test$/m, ".ci/run runs `npm test`, the command the README gives");
    });
  });

  describe("the generated reference (docs/reference/)", () => {
    const pages = generated();

    it("is what `npm run schema` generates: no page stale, missing or left over", () => {
      const committed = markdownFiles(root, "docs/reference").map((f) => path.relative("docs/reference", f));
      assert.deepEqual(
        committed,
        [...pages.keys()].sort(),
        "run `npm run schema` and commit docs/reference/",
      );
      for (const [file, text] of pages)
        assert.equal(
          read(path.join("docs/reference", file)),
          text,
          `docs/reference/${file} is stale: run \`npm run schema\``,
        );
    });

    it("has a page for every resource kind and every function, each with an example program", () => {
      const kinds = fs.readdirSync(path.join(root, "provider/kinds")).map((f) => f.replace(/\.ts$/, ""));
      assert.equal(kinds.length, resourceDefinitions.length, "provider/kinds/ and the definitions differ");
      for (const kind of kinds) assert.ok(pages.has(`resources/${kind}.md`), kind);
      for (const def of resourceDefinitions) assert.ok(pages.has(`resources/${def.kind}.md`), def.kind);
      for (const fn of functionDefinitions) assert.ok(pages.has(`functions/${fn.name}.md`), fn.name);
      assert.equal(pages.size, resourceDefinitions.length + functionDefinitions.length + 2);
      for (const [file, text] of pages) {
        if (file === "index.md" || file === "configuration.md") continue;
        const programs = codeBlocks(text).filter(
          (b) => b.info === "ts" && /from "pulumi-frontdoor"/.test(b.code),
        );
        assert.ok(programs.length > 0, `${file} has no example program`);
      }
    });

    it("says, per resource, the import id form the provider takes", () => {
      const page = (kind: string) => pages.get(`resources/${kind}.md`)!;
      for (const def of resourceDefinitions) {
        const text = page(def.kind);
        if (def.api === "frontdoor") assert.match(text, /\{ import: "<frontdoorId>\/<id>" \}/, def.kind);
        else if (def.api === "edge") assert.match(text, /\{ import: "<id>" \}/, def.kind);
        else assert.match(text, /Cannot be imported/, def.kind);
      }
    });

    it("marks secrets, defaults and replacement as the schema says", () => {
      const identity = pages.get("resources/Identity.md")!;
      assert.match(
        identity,
        /\| `enrollmentJwt` \| `EnrollmentJwt` \| `enrollment_jwt` \| string \| secret \|/,
      );
      assert.match(
        identity,
        /\| `enrollment` \| `Enrollment` \| `enrollment` \| \[IdentityEnrollment\]\(#identityenrollment\) \| no \| {2}\| {2}\| replaces \|/,
      );
      assert.match(identity, /\| `isAdmin` \| `IsAdmin` \| `is_admin` \| boolean \| no \| `false` \|/);
      // Every output, `id` first; enums as their values; `tags` as the map of any the SDKs accept.
      assert.match(identity, /## Outputs\n[\s\S]*?\| `id` \| `ID\(\)` \| `id` \| string \|/);
      assert.match(
        identity,
        /\| `type` \| `Type` \| `type` \| `"User"` \\\| `"Device"` \\\| `"Service"` \\\| `"Router"` \\\| `"Default"` \|/,
      );
      assert.match(
        identity,
        /\| `tags` \| `Tags` \| `tags` \| map of any \| no \|.*values: string, boolean or null/,
      );
      assert.match(identity, /frontdoor\.Identity\.get\("existing", "a1B2c3D4e"\)/);
      assert.match(identity, /frontdoor\.GetIdentity\(ctx, "existing", pulumi\.ID\("a1B2c3D4e"\), nil\)/);
      assert.match(
        pages.get("resources/Ca.md")!,
        /\| `privateKeyPem` \| `PrivateKeyPem` \| `private_key_pem` \| string \| no \| {2}\| secret \|/,
      );
      assert.match(
        pages.get("functions/enrollIdentity.md")!,
        /\| `identityJson` \| `IdentityJson` \| `identity_json` \| string \| secret \|/,
      );
      assert.match(pages.get("functions/enrollIdentity.md")!, /there is no `\.\.\.Output` variant/);
      assert.match(
        pages.get("functions/getCas.md")!,
        /`frontdoor\.getCas\(args: GetCasArgs\)` answers a Promise of `GetCasResult`/,
      );
      assert.match(pages.get("functions/getCa.md")!, /Go `frontdoor\.LookupCa`/);
      assert.match(pages.get("functions/getIdentity.md")!, /`frontdoor\.getIdentityOutput\(args\)`/);
    });

    it("lists every frontdoor:* key with its environment fallback in configuration.md", () => {
      const text = pages.get("configuration.md")!;
      const schema = JSON.parse(read("schema.json"));
      for (const [key, v] of Object.entries<any>(schema.config.variables)) {
        const row = text.split("\n").find((l) => l.startsWith(`| \`frontdoor:${key}\``));
        assert.ok(row, `frontdoor:${key} missing`);
        for (const env of v.defaultInfo.environment) assert.ok(row.includes(`\`${env}\``), `${key}: ${env}`);
      }
    });
  });

  describe("code blocks", () => {
    const blocks = docFiles.flatMap((file) =>
      codeBlocks(read(file))
        .filter((b) => /^(ts|typescript)\b/.test(b.info))
        .map((b) => ({ file, ...b })),
    );
    const fragments = blocks.filter((b) => /\bfragment\b/.test(b.info));
    const programs = blocks.filter((b) => !/\bfragment\b/.test(b.info));

    it("are programs: a TypeScript block that is a fragment says so, and those are rare", () => {
      assert.ok(programs.length >= 40, `only ${programs.length} TypeScript programs found`);
      assert.ok(
        fragments.length <= 3,
        `too many fragments: ${fragments.map((b) => `${b.file}:${b.line}`).join(", ")}`,
      );
      for (const b of programs)
        assert.match(
          b.code,
          /from "pulumi-frontdoor(-native)?"/,
          `${b.file}:${b.line} imports neither pulumi-frontdoor nor the plugin's SDK pulumi-frontdoor-native`,
        );
    });

    // The plugin's SDK is generated (sdk/native, not in git): its blocks are checked apart, below.
    const native = (b: CodeBlock) => /from "pulumi-frontdoor-native"/.test(b.code);

    it("type-check, strict, against this checkout as the package `pulumi-frontdoor` (a wrong property fails)", function () {
      this.timeout(600_000);
      assertTypeChecked(programs.filter((b) => !native(b)));
    });

    describe("importing the plugin's SDK `pulumi-frontdoor-native`", () => {
      const nativePrograms = programs.filter(native);
      useNativeSdks(
        `these blocks are not type-checked: ${nativePrograms.map((b) => `${b.file}:${b.line}`).join(", ")}`,
      );

      it("type-check, strict, against the Node.js SDK generated from schema.json (a wrong property fails)", function () {
        this.timeout(600_000);
        assertTypeChecked(nativePrograms);
      });
    });
  });

  describe("links", () => {
    it("every relative link in README.md, docs/ and the examples', mock's and harness's pages points to a file (and heading) that exists", () => {
      const broken: string[] = [];
      for (const file of pageFiles) {
        for (const link of links(read(file))) {
          if (/^[a-z]+:/i.test(link.target)) continue; // https:, mailto:
          const [target, anchor] = link.target.split("#");
          const resolved = target ? path.join(path.dirname(file), decodeURIComponent(target)) : file;
          const where = `${file}:${link.line} -> ${link.target}`;
          if (!fs.existsSync(path.join(root, resolved))) {
            broken.push(`${where} (no such file)`);
            continue;
          }
          if (anchor !== undefined && resolved.endsWith(".md") && !headingAnchors(read(resolved)).has(anchor))
            broken.push(`${where} (no such heading)`);
        }
      }
      assert.deepEqual(broken, []);
    });

    it("would notice a broken one (the checker itself)", () => {
      const text = "# Title\n\n## A `code` heading: yes\n\nSee [x](#a-code-heading-yes), `[not](a link)`.\n";
      assert.deepEqual([...headingAnchors(text)], ["title", "a-code-heading-yes"]);
      assert.deepEqual(links(text), [{ target: "#a-code-heading-yes", line: 5 }]);
      assert.deepEqual(links("```md\n[in](code.md)\n```\n[out](file.md)\n"), [
        { target: "file.md", line: 4 },
      ]);
    });
  });

  describe("the index (docs/index.md)", () => {
    /** What the index links to, as paths from the repository root (folders without a trailing slash). */
    const linked = links(read("docs/index.md"))
      .filter((link) => !/^[a-z]+:/i.test(link.target))
      .map((link) => path.join("docs", decodeURIComponent(link.target.split("#")[0])).replace(/\/$/, ""));

    it("lists every guide in docs/guides/", () => {
      const missing = markdownFiles(root, "docs/guides").filter((guide) => !linked.includes(guide));
      assert.deepEqual(missing, [], "add these guides to docs/index.md");
    });

    it("lists every example folder", () => {
      const examples = fs
        .readdirSync(path.join(root, "examples"), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => path.join("examples", entry.name));
      assert.ok(examples.length >= 10, `only ${examples.length} examples found`);
      const missing = examples.filter(
        (dir) => !linked.some((target) => target === dir || target.startsWith(`${dir}/`)),
      );
      assert.deepEqual(missing, [], "add these examples to docs/index.md");
    });
  });

  describe("pointers to README sections and docs headings", () => {
    const readmeAnchors = headingAnchors(read("README.md"));

    it("in pages, source comments and schema descriptions, name only sections that exist", () => {
      const texts: { where: string; text: string }[] = [
        ...pageFiles.map((file) => ({ where: file, text: proseOnly(read(file)) })),
        ...SOURCE_DIRS.flatMap((dir) => sourceFiles(dir)).map((file) => ({ where: file, text: read(file) })),
        ...schemaDescriptions(JSON.parse(read("schema.json"))),
      ];
      const stale = texts.flatMap(({ where, text }) =>
        stalePointers(text, readmeAnchors, (file) => {
          const full = path.join(root, file);
          return fs.existsSync(full) ? headingAnchors(fs.readFileSync(full, "utf8")) : undefined;
        }).map((pointer) => `${where}: ${pointer}`),
      );
      assert.deepEqual(stale, []);
    });

    it("would notice a stale one (the checker itself)", () => {
      const anchors = new Set(["install", "the-three-jobs"]);
      const docs = (file: string) => (file === "docs/guides/a.md" ? new Set(["yes"]) : undefined);
      const text = [
        'See the README, Event data queries. The README section "Install" and README: The three jobs.',
        "Also docs/guides/a.md#yes, docs/guides/a.md#no and docs/guides/b.md#any.",
      ].join("\n");
      assert.deepEqual(stalePointers(text, anchors, docs), [
        'README section "Event data queries"',
        "docs/guides/a.md#no",
        "docs/guides/b.md#any",
      ]);
    });
  });

  describe("retried statuses", () => {
    const retried = Array.from({ length: 200 }, (_, i) => 400 + i).filter(isRetryableStatus);

    it("every sentence about retries that names statuses names those provider/http/retry.ts retries", () => {
      assert.deepEqual(retried, [429, 502, 503, 504], "retry.ts changed: check the docs, then this list");
      const wrong = pageFiles.flatMap((file) =>
        retrySentences(read(file))
          .filter((sentence) => !retried.every((status) => sentence.includes(String(status))))
          .map((sentence) => `${file}: ${sentence}`),
      );
      assert.deepEqual(wrong, []);
    });

    it("would notice a page that says less (the checker itself)", () => {
      const text =
        "Bad input is 400. 429 and 503 are retried. A 429 is retried.\n\nA 502, 503 or 504 after `frontdoor:maxRetries` is looked up.";
      assert.deepEqual(retrySentences(text), ["429 and 503 are retried."]);
    });
  });
});

/** TypeScript and JavaScript sources under `dir` (generated SDKs and build output left out). */
function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|js)$/.test(file) && !/(^|\/)(node_modules|native|bin)\//.test(file))
    .map((file) => path.join(dir, file));
}

/** Every `description` in the package schema, with where it is. */
function schemaDescriptions(node: unknown, where = "schema.json"): { where: string; text: string }[] {
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "description" && typeof value === "string"
      ? [{ where, text: value }]
      : schemaDescriptions(value, `${where}/${key}`),
  );
}

/**
 * The pointers in `text` to a README section that is not a heading of README.md ("see the README,
 * Event data queries", `README section "Install"`, "README: Releases"), and the `docs/...md#anchor`
 * paths whose page or heading does not exist (`anchorsOf` answers a page's anchors, or undefined).
 */
function stalePointers(
  text: string,
  readmeAnchors: Set<string>,
  anchorsOf: (file: string) => Set<string> | undefined,
): string[] {
  const stale: string[] = [];
  const named = [
    ...text.matchAll(/\bREADME(?:\.md)?(?:'s)?(?: section)?[,:]?\s+["“]([^"”\n]{2,80})["”]/g),
    ...text.matchAll(/\bREADME(?:\.md)?(?:,| section|:)\s+([A-Z][\w -]{1,80}?)(?=[).;,"]|\s*$)/gm),
  ];
  for (const [, name] of named) {
    const slug = [...headingAnchors(`# ${name}`)][0];
    const exists = [...readmeAnchors].some((anchor) => anchor === slug || anchor.startsWith(`${slug}-`));
    if (!exists) stale.push(`README section "${name}"`);
  }
  for (const [, file, anchor] of text.matchAll(/\b((?:README|docs\/[\w./-]+)\.md)#([\w-]+)/g)) {
    const anchors = file === "README.md" ? readmeAnchors : anchorsOf(file);
    if (!anchors?.has(anchor)) stale.push(`${file}#${anchor}`);
  }
  return stale;
}

/**
 * The sentences of a page's prose that say something is retried and name two or more HTTP statuses
 * (4xx, 5xx): a list of what is retried. One status alone ("a 429 is retried") lists nothing.
 * `Retry-After` and setting names (`frontdoor:maxRetries`) are not about which statuses are retried.
 */
function retrySentences(markdown: string): string[] {
  return proseOnly(markdown)
    .split(/\n\s*\n/)
    .flatMap((paragraph) => paragraph.replace(/\s*\n\s*/g, " ").split(/(?<=[.;])\s+(?=[A-Z(\d])/))
    .filter((sentence) => {
      const about = sentence.replace(/Retry-After|frontdoor:\w+/g, "");
      const statuses = new Set(about.match(/\b[45]\d\d\b/g));
      return /\bretr(y|ie[sd])\b/i.test(about) && statuses.size >= 2;
    });
}

/**
 * Type-checks `programs` and fails on any error. The check must be able to fail: a copy of a real
 * block with one property misspelt is compiled beside the others and must be refused.
 */
function assertTypeChecked(programs: (CodeBlock & { file: string })[]): void {
  const model = programs.find((b) => /\bname: "/.test(b.code));
  assert.ok(model, "no block sets a `name:` to misspell");
  const planted: CodeBlock & { file: string } = {
    ...model,
    file: "planted",
    code: model.code.replace(/\bname: "/, 'nmae: "'),
  };
  const errors = typeCheck([...programs, planted]);
  const plantedErrors = errors.get(planted) ?? [];
  assert.ok(
    plantedErrors.some((e) => /nmae/.test(e)),
    `a misspelt property was not refused: ${plantedErrors.join("\n") || "no error at all"}`,
  );
  const failures = programs.flatMap((b) => (errors.get(b) ?? []).map((e) => `${b.file}:${b.line}: ${e}`));
  assert.deepEqual(failures, []);
}

/**
 * Compiles each block as a module of its own in a scratch project whose `pulumi-frontdoor` is this
 * checkout's SDK (the repository's tsconfig maps it the same way) and whose node_modules are the
 * repository's. Answers the errors per block.
 */
function typeCheck<B extends CodeBlock & { file: string }>(blocks: B[]): Map<B, string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-docs-"));
  try {
    fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    const byFile = new Map<string, B>();
    blocks.forEach((b, i) => {
      const name = path.join(dir, `block-${i}.ts`);
      // `export {}` keeps each block a module, so two blocks may both declare `config`.
      fs.writeFileSync(name, `${b.code}\nexport {};\n`);
      byFile.set(name, b);
    });
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      lib: ["lib.es2022.d.ts"],
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
      typeRoots: [path.join(dir, "node_modules", "@types")],
      baseUrl: dir,
      paths: {
        "pulumi-frontdoor": [path.join(root, "sdk", "index.ts")],
        // The plugin's SDK, generated by Pulumi's Node.js generator (sdk/native/nodejs, useNativeSdks).
        "pulumi-frontdoor-native": [path.join(root, "sdk", "native", "nodejs", "index.ts")],
      },
    };
    const program = ts.createProgram([...byFile.keys()], options);
    const errors = new Map<B, string[]>();
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const block = d.file ? byFile.get(path.normalize(d.file.fileName)) : undefined;
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      // Errors outside the blocks (in the SDK) belong to every block: report them on the first one.
      const owner = block ?? blocks[0];
      errors.set(owner, [
        ...(errors.get(owner) ?? []),
        block ? `line ${block.line + 1 + line}: ${message}` : `${d.file?.fileName ?? ""}: ${message}`,
      ]);
    }
    return errors;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
