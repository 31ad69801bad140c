// `pulumi-frontdoor-audit access`: the effective-access matrix of the live configuration; with
// `--before` its diff against a matrix saved earlier (around a deployment); with `--preview` the
// diff a change will make, predicted from its preview before it is applied (for the pull request).
import {
  accessMatrix,
  diffAccess,
  formatAccessDiffMarkdown,
  formatAccessMarkdown,
  isEmptyDiff,
  readEdgeConfiguration,
  readSavedMatrix,
} from "./access";
import { type AuditCommand, parseFlags, UsageError } from "./command";
import { formatPreviewAccessMarkdown, previewAccess, readPreviewFile } from "./preview";

/**
 * A report for the pull request, not a gate: it exits 0 either way unless `--exit-code` asks for 1
 * when access changed (with `--preview`: or may change).
 */
export const accessCommand: AuditCommand = {
  name: "access",
  usage: "[--before MATRIX.json | --preview PREVIEW.json] [--exit-code] [--json]",
  async run(ctx, argv) {
    const { values, switches } = parseFlags(argv, {
      values: ["--before", "--preview"],
      switches: ["--exit-code"],
    });
    const beforeFile = values.get("--before")?.[0];
    const previewFile = values.get("--preview")?.[0];
    if (beforeFile !== undefined && previewFile !== undefined)
      throw new UsageError(
        "--before and --preview do not go together (--preview compares with the live matrix)",
      );
    const gate = switches.has("--exit-code");
    if (previewFile !== undefined) {
      // Read the file first: a wrong file fails before any request.
      const steps = readPreviewFile(previewFile);
      const predicted = previewAccess(await readEdgeConfiguration(ctx), steps);
      const changed = !isEmptyDiff(predicted) || predicted.unknown.length > 0;
      return {
        exitCode: changed && gate ? 1 : 0,
        text: formatPreviewAccessMarkdown(predicted),
        json: predicted,
      };
    }
    const before = beforeFile === undefined ? undefined : readSavedMatrix(beforeFile);
    const matrix = await accessMatrix(ctx);
    if (!before) return { exitCode: 0, text: formatAccessMarkdown(matrix), json: matrix };
    const diff = diffAccess(before, matrix);
    return {
      exitCode: !isEmptyDiff(diff) && gate ? 1 : 0,
      text: formatAccessDiffMarkdown(diff),
      json: diff,
    };
  },
};
