// Reading Markdown the way GitHub renders it, as far as the docs tests need: fenced code blocks (with
// their info string and line), the headings' anchors, and the relative links outside code.
import * as fs from "node:fs";
import * as path from "node:path";

export interface CodeBlock {
  /** The info string after the fence, e.g. `ts` or `ts fragment`. */
  info: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** Fenced blocks (``` or ~~~, indented too, e.g. inside a list item), with their indentation removed. */
export function codeBlocks(text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`);
      if (close.test(lines[j])) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    blocks.push({ info: info.trim(), code: body.join("\n"), line: i + 1 });
    i = j;
  }
  return blocks;
}

/** The text without its fenced blocks and inline code spans (lines kept, so positions still count). */
export function proseOnly(text: string): string {
  const lines = text.split("\n");
  let fence: string | undefined;
  return lines
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return "";
      }
      if (marker) {
        fence = marker;
        return "";
      }
      return line.replace(/(`+).*?\1/g, "");
    })
    .join("\n");
}

export interface Heading {
  /** 1 for `#`, 2 for `##`, ... */
  level: number;
  /** GitHub's anchor of the heading. */
  anchor: string;
  /** 1-based line. */
  line: number;
}

/** The headings outside code, with GitHub's anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
export function headings(text: string): Heading[] {
  const out: Heading[] = [];
  const seen = new Map<string, number>();
  let fence: string | undefined;
  text.split("\n").forEach((line, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return;
    }
    if (marker) {
      fence = marker;
      return;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) return;
    const plain = heading[2].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.push({ level: heading[1].length, anchor: count ? `${slug}-${count}` : slug, line: i + 1 });
  });
  return out;
}

/** GitHub's anchors of the headings (see `headings`). */
export function headingAnchors(text: string): Set<string> {
  return new Set(headings(text).map((h) => h.anchor));
}

/**
 * The section under the heading with `anchor`, up to the next heading of the same or a higher level:
 * its text and the 1-based line of its heading (a block's line in it plus that, minus one, is its line
 * in the whole text).
 */
export function section(text: string, anchor: string): { text: string; line: number } {
  const all = headings(text);
  const at = all.findIndex((h) => h.anchor === anchor);
  if (at < 0) throw new Error(`no heading with the anchor #${anchor}`);
  const next = all.slice(at + 1).find((h) => h.level <= all[at].level);
  const lines = text.split("\n");
  return {
    text: lines.slice(all[at].line - 1, next ? next.line - 1 : lines.length).join("\n"),
    line: all[at].line,
  };
}

export interface Link {
  target: string;
  line: number;
}

/** Links (`[text](target)`) in the prose, not in code. */
export function links(text: string): Link[] {
  const out: Link[] = [];
  proseOnly(text)
    .split("\n")
    .forEach((line, i) => {
      for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
        out.push({ target: m[1], line: i + 1 });
    });
  return out;
}

/** Markdown files under `dir`, recursively, as paths relative to `root`. */
export function markdownFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...markdownFiles(root, rel));
    else if (entry.name.endsWith(".md")) out.push(rel);
  }
  return out.sort();
}
