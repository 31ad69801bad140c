// CHANGELOG.md in the Keep a Changelog form (https://keepachangelog.com/en/1.1.0/): the notes of what is
// not released yet sit under `## [Unreleased]`; a release moves them under `## [<version>] - <date>`,
// leaves an empty Unreleased section above, and keeps the compare links at the bottom in step.
// Releasing a version the file already has changes nothing (the release workflow reruns the command
// on the tagged commit, where the version is already recorded).

const UNRELEASED = /^## \[Unreleased\][^\n]*\n/m;

/**
 * The changelog `text` with `version` released on `date` (YYYY-MM-DD); `repositoryUrl` makes the
 * compare links. Throws when the file has no Unreleased section to release.
 */
function releaseChangelog(text, { version, date, repositoryUrl }) {
  if (new RegExp(`^## \\[${escapeRegExp(version)}\\]`, "m").test(text)) return text;
  const found = UNRELEASED.exec(text);
  if (!found) throw new Error("CHANGELOG.md has no `## [Unreleased]` section");
  const heading = `## [${version}] - ${date}\n`;
  const released = `${text.slice(0, found.index)}## [Unreleased]\n\n${heading}${text.slice(found.index + found[0].length)}`;
  // The link definitions (`[label]: url` lines) are rewritten at the bottom: Unreleased compares from
  // the new version, the new version from the previous one (the next `## [x.y.z]` below it).
  const isLink = (line) => /^\[[^\]]+\]: \S+$/.test(line);
  const lines = released.split("\n");
  const body = lines
    .filter((line) => !isLink(line))
    .join("\n")
    .trimEnd();
  const kept = lines.filter(
    (line) => isLink(line) && !line.startsWith("[Unreleased]:") && !line.startsWith(`[${version}]:`),
  );
  const versions = [...released.matchAll(/^## \[(\d[^\]]*)\]/gm)].map((m) => m[1]);
  const before = versions[versions.indexOf(version) + 1];
  const links = [
    `[Unreleased]: ${repositoryUrl}/compare/v${version}...HEAD`,
    before
      ? `[${version}]: ${repositoryUrl}/compare/v${before}...v${version}`
      : `[${version}]: ${repositoryUrl}/releases/tag/v${version}`,
    ...kept,
  ];
  return `${body}\n\n${links.join("\n")}\n`;
}

/** The notes of one released version (for the GitHub release's text), without its heading. */
function releaseNotes(text, version) {
  const start = new RegExp(`^## \\[${escapeRegExp(version)}\\][^\\n]*\\n`, "m").exec(text);
  if (!start) throw new Error(`CHANGELOG.md has no section for ${version}`);
  const rest = text.slice(start.index + start[0].length);
  const end = rest.search(/^## \[|^\[[^\]]+\]: /m);
  return (end === -1 ? rest : rest.slice(0, end)).trim();
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

module.exports = { releaseChangelog, releaseNotes };
