// package.json's repository.url is the one place naming the repository; the Go module path and the
// plugin's download URL derive from it (provider/repository.ts).
import * as assert from "node:assert/strict";
import {
  goModulePath,
  PLUGIN_DOWNLOAD_URL_ENV,
  parseRepository,
  pluginDownloadUrl,
  projectRepository,
} from "../provider/repository";

// The placeholder the Pulumi CLI fills in with the plugin's version (not a template string).
// biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text is what is asserted
const VERSION = "${VERSION}";

describe("the repository named by package.json", () => {
  it("reads npm's spellings of a repository URL", () => {
    for (const url of [
      "git+https://github.com/o/n.git",
      "https://github.com/o/n",
      "https://github.com/o/n/",
    ]) {
      assert.deepEqual(parseRepository(url), {
        url: "https://github.com/o/n",
        modulePrefix: "github.com/o/n",
      });
    }
    assert.throws(
      () => parseRepository("git@github.com:o/n.git"),
      /is not https:\/\/<host>\/<owner>\/<name>/,
    );
  });

  it("gives the Go SDK's module path (the folder the release tags)", () => {
    assert.equal(goModulePath(parseRepository("https://github.com/o/n")), "github.com/o/n/sdk/go");
    assert.equal(goModulePath(), `${projectRepository().modulePrefix}/sdk/go`);
  });

  it("gives the plugin's download URL: the GitHub release assets, unless FRONTDOOR_PLUGIN_DOWNLOAD_URL says otherwise", () => {
    const repo = parseRepository("git+https://github.com/o/n.git");
    // The form Pulumi documents for pluginDownloadURL on GitHub releases; the CLI fills in ${VERSION}.
    assert.equal(pluginDownloadUrl({}, repo), `https://github.com/o/n/releases/download/v${VERSION}`);
    assert.equal(
      pluginDownloadUrl({ [PLUGIN_DOWNLOAD_URL_ENV]: `https://127.0.0.1:8443/v${VERSION}` }, repo),
      `https://127.0.0.1:8443/v${VERSION}`,
    );
    assert.throws(
      () => pluginDownloadUrl({}, parseRepository("https://gitlab.com/o/n")),
      /not on github\.com .*set FRONTDOOR_PLUGIN_DOWNLOAD_URL/,
    );
  });
});
