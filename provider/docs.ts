// The README's reference sections (configuration, and each resource's and function's properties) are
// generated from schema.json, so the docs say exactly what the provider validates. `npm run schema`
// rewrites them between `<!-- BEGIN generated:NAME -->` and `<!-- END generated:NAME -->` markers.

type Spec = Record<string, any>;

export function configTable(schema: Spec): string {
  const rows = Object.entries(schema.config.variables as Record<string, Spec>).map(
    ([key, v]) =>
      `| \`frontdoor:${key}\`${v.secret ? " (secret)" : ""} | ${v.defaultInfo.environment.map((e: string) => `\`${e}\``).join(", ")} | ${cell(v.description.replace(/ Environment: .*$/, ""))} |`,
  );
  return ["| Config key | Environment fallback | Meaning |", "|---|---|---|", ...rows].join("\n");
}

export function reference(schema: Spec): string {
  const parts: string[] = [];
  for (const [token, spec] of Object.entries(schema.resources as Record<string, Spec>)) {
    const name = token.split(":")[2];
    parts.push(`### ${name}\n\n${spec.description}\n`);
    const required = new Set<string>(spec.requiredInputs);
    parts.push("| Input | Type | Required | Description |", "|---|---|---|---|");
    for (const [prop, p] of Object.entries(spec.inputProperties as Record<string, Spec>)) {
      const notes = [p.secret ? "secret" : "", p.willReplaceOnChanges ? "replaces on change" : ""].filter(
        Boolean,
      );
      parts.push(
        `| \`${prop}\` | ${typeName(p)} | ${required.has(prop) ? "yes" : "no"} | ${cell(p.description ?? "")}${notes.length ? ` (${notes.join(", ")})` : ""} |`,
      );
    }
    const outputs = Object.entries(spec.properties as Record<string, Spec>).filter(
      ([p]) => !(p in spec.inputProperties),
    );
    if (outputs.length) {
      parts.push("", "| Output | Type | Description |", "|---|---|---|");
      for (const [prop, p] of outputs) {
        parts.push(
          `| \`${prop}\` | ${typeName(p)} | ${cell(p.description ?? "")}${p.secret ? " (secret)" : ""} |`,
        );
      }
    }
    parts.push("");
  }
  for (const [token, spec] of Object.entries((schema.functions ?? {}) as Record<string, Spec>)) {
    parts.push(`### ${token.split(":")[2]}()\n\n${spec.description}\n`);
    parts.push("| Argument | Type | Description |", "|---|---|---|");
    for (const [prop, p] of Object.entries((spec.inputs?.properties ?? {}) as Record<string, Spec>)) {
      parts.push(`| \`${prop}\` | ${typeName(p)} | ${cell(p.description ?? "")} |`);
    }
    const results = Object.entries((spec.outputs?.properties ?? {}) as Record<string, Spec>).map(
      ([prop, p]) => `\`${prop}\` (${typeName(p)}${p.secret ? ", secret" : ""})`,
    );
    if (results.length) parts.push("", `Result: ${results.join(", ")}.`);
    parts.push("");
  }
  return parts.join("\n").trim();
}

/** Replaces the text between the markers of `name`; fails if the markers are missing. */
export function replaceGenerated(text: string, name: string, content: string): string {
  const begin = `<!-- BEGIN generated:${name} -->`;
  const end = `<!-- END generated:${name} -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md has no ${begin} ... ${end} block`);
  return `${text.slice(0, from + begin.length)}\n${content}\n${text.slice(to)}`;
}

function typeName(p: Spec): string {
  if (p.$ref) return p.$ref.split(":").pop();
  if (p.oneOf) return p.oneOf.map(typeName).join(" \\| ");
  if (p.type === "array") return `${typeName(p.items)}[]`;
  if (p.type === "object")
    return `map of ${p.additionalProperties ? typeName(p.additionalProperties) : "any"}`;
  return p.type ?? "any";
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
