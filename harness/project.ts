// The program directory: project name from Pulumi.yaml, config keys like pulumi names them.
import * as fs from "node:fs";
import * as path from "node:path";

export function projectName(programDir: string): string {
  const file = path.join(programDir, "Pulumi.yaml");
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    throw new Error(`no Pulumi.yaml in ${programDir}`);
  }
  // The real CLI's Node.js language host runs nothing in a folder without package.json, and reports
  // success with an empty stack (seen with pulumi 3.259): refuse it instead of running what it would not.
  if (!fs.existsSync(path.join(programDir, "package.json"))) {
    throw new Error(`no package.json in ${programDir}: the Pulumi CLI would run nothing there`);
  }
  // Only the top-level `name:` is needed here: a line, not a YAML document.
  const m = /^name:\s*["']?([^"'\s#]+)/m.exec(text);
  if (!m) throw new Error(`${file} has no top-level "name:"`);
  return m[1];
}

/** `apiUrl` -> `<project>:apiUrl`; `frontdoor:config:apiUrl` -> `frontdoor:apiUrl` (pulumi's rules). */
export function fullConfigKey(project: string, key: string): string {
  const parts = key.split(":");
  if (parts.length === 1) return `${project}:${key}`;
  if (parts.length === 3 && parts[1] === "config") return `${parts[0]}:${parts[2]}`;
  return key;
}
