// The plugin's release archives (scripts/release/plugin-binaries.js) for the tests and the benchmark:
// built once per process, what is inside them (the executable's format and architecture, read from
// its header; a Mach-O binary's ad-hoc code signature, its page hashes recomputed), and the release
// assets served over HTTP on 127.0.0.1 as the Pulumi CLI downloads them.
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../peers/index";

const BUILDER = path.join(REPO_ROOT, "scripts", "release", "plugin-binaries.js");
const { archiveName, binaryName, PLATFORMS } = require(BUILDER) as {
  archiveName(version: string, platform: string): string;
  binaryName(platform: string): string;
  PLATFORMS: Record<string, { format: "elf" | "macho" | "pe" }>;
};

export { archiveName, binaryName, PLATFORMS };

export const VERSION: string = JSON.parse(
  fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"),
).version;

let scratch: string | undefined;

/** A new folder under this process's scratch folder (removed when the process exits: archives and binaries are large). */
export function scratchDir(prefix: string): string {
  if (!scratch) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "frontdoor-binaries-"));
    process.on("exit", () => fs.rmSync(root, { recursive: true, force: true }));
    scratch = root;
  }
  return fs.mkdtempSync(path.join(scratch, prefix));
}

let built: { dir: string; platforms: string } | undefined;

/**
 * The archives of `platforms` for this package's version, built by the release script into a temp
 * folder: once per process for the same platforms (a build takes minutes). Answers the folder.
 */
export function releaseArchives(platforms: string[]): string {
  const key = [...platforms].sort().join(",");
  if (built?.platforms === key && fs.existsSync(built.dir)) return built.dir;
  const dir = scratchDir("release-");
  execFileSync(
    process.execPath,
    [BUILDER, "--version", VERSION, "--out", dir, "--platforms", platforms.join(",")],
    { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  built = { dir, platforms: key };
  return dir;
}

/** `tar -tvzf`: each entry's mode string and name. */
export function archiveEntries(archive: string): { mode: string; name: string }[] {
  return execFileSync("tar", ["-tvzf", archive], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const fields = line.split(/\s+/);
      return { mode: fields[0], name: fields[fields.length - 1] };
    });
}

/** Extracts an archive into a new temp folder and answers the path of the executable in it. */
export function extractBinary(archive: string, platform: string): string {
  const dir = scratchDir(`${platform}-`);
  execFileSync("tar", ["-xzf", archive, "-C", dir]);
  return path.join(dir, binaryName(platform));
}

export interface ExecutableFormat {
  format: "elf" | "macho" | "pe" | "unknown";
  /** Go's architecture names, as in the archive names. */
  arch?: "amd64" | "arm64" | string;
}

/**
 * The format and architecture from the header: ELF e_machine (62 x86-64, 183 AArch64), Mach-O
 * cputype (0x01000007 x86_64, 0x0100000c arm64), PE machine (0x8664 AMD64, 0xaa64 ARM64).
 */
export function executableFormat(file: string): ExecutableFormat {
  const head = Buffer.alloc(4096);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.readUInt32BE(0) === 0x7f454c46) {
    const machine = head.readUInt16LE(18);
    return { format: "elf", arch: { 62: "amd64", 183: "arm64" }[machine] ?? `e_machine ${machine}` };
  }
  if (head.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = head.readUInt32LE(4);
    return { format: "macho", arch: { 16777223: "amd64", 16777228: "arm64" }[cpu] ?? `cputype ${cpu}` };
  }
  if (head.toString("latin1", 0, 2) === "MZ") {
    const pe = head.readUInt32LE(0x3c);
    if (head.readUInt32LE(pe) === 0x4550) {
      const machine = head.readUInt16LE(pe + 4);
      return { format: "pe", arch: { 34404: "amd64", 43620: "arm64" }[machine] ?? `machine ${machine}` };
    }
  }
  return { format: "unknown" };
}

/** The Authenticode certificate table of a PE file (data directory 4): its size, 0 when unsigned. */
export function peCertificateTableSize(file: string): number {
  const buf = fs.readFileSync(file);
  const pe = buf.readUInt32LE(0x3c);
  const optional = pe + 24;
  const pe32plus = buf.readUInt16LE(optional) === 0x20b;
  return buf.readUInt32LE(optional + (pe32plus ? 112 : 96) + 4 * 8 + 4);
}

export interface MachoSignature {
  /** The code directory's flags (0x2: ad-hoc). */
  flags: number;
  /** Pages whose SHA-256 differs from the code directory's hash of it. */
  badPages: number;
  pages: number;
}

/**
 * A 64-bit Mach-O file's code signature (LC_CODE_SIGNATURE), undefined when it has none: the code
 * directory's flags, and each page of the signed range hashed again and compared, as the kernel does
 * when it maps the page.
 */
export function machoSignature(file: string): MachoSignature | undefined {
  const d = fs.readFileSync(file);
  const ncmds = d.readUInt32LE(16);
  let offset = 32;
  let blob: Buffer | undefined;
  for (let i = 0; i < ncmds; i++) {
    const cmd = d.readUInt32LE(offset);
    if (cmd === 0x1d) {
      const dataOffset = d.readUInt32LE(offset + 8);
      blob = d.subarray(dataOffset, dataOffset + d.readUInt32LE(offset + 12));
    }
    offset += d.readUInt32LE(offset + 4);
  }
  if (!blob) return undefined;
  // SuperBlob (big-endian): magic 0xfade0cc0, length, count, then (type, offset) per blob.
  const count = blob.readUInt32BE(8);
  for (let i = 0; i < count; i++) {
    const at = blob.readUInt32BE(12 + 8 * i + 4);
    if (blob.readUInt32BE(at) !== 0xfade0c02) continue; // CodeDirectory
    const flags = blob.readUInt32BE(at + 12);
    const hashOffset = blob.readUInt32BE(at + 16);
    const nCodeSlots = blob.readUInt32BE(at + 28);
    const codeLimit = blob.readUInt32BE(at + 32);
    const hashSize = blob.readUInt8(at + 36);
    const hashType = blob.readUInt8(at + 37);
    const pageSize = 2 ** blob.readUInt8(at + 39);
    if (hashType !== 2) throw new Error(`code directory hash type ${hashType}, not SHA-256`);
    let badPages = 0;
    for (let page = 0; page < nCodeSlots; page++) {
      const data = d.subarray(page * pageSize, Math.min((page + 1) * pageSize, codeLimit));
      const want = blob.subarray(at + hashOffset + page * hashSize, at + hashOffset + (page + 1) * hashSize);
      const got = crypto.createHash("sha256").update(data).digest().subarray(0, hashSize);
      if (!got.equals(want)) badPages++;
    }
    return { flags, badPages, pages: nCodeSlots };
  }
  throw new Error(`${file}: a code signature without a code directory`);
}

export interface ReleaseServer {
  /** The release assets' base URL, with the CLI's ${VERSION} placeholder (as in schema.json). */
  downloadUrl: string;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * The archives of `dir` over HTTP on 127.0.0.1, at /releases/download/v<version>/<archive> (the
 * layout of GitHub's release assets); any other path is a 404.
 */
export async function serveReleaseAssets(dir: string): Promise<ReleaseServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const match = /^\/releases\/download\/v([^/]+)\/([^/]+\.tar\.gz)$/.exec(req.url ?? "");
    const file = match && match[1] === VERSION ? path.join(dir, match[2]) : undefined;
    if (req.method !== "GET" || !file || !fs.existsSync(file)) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": fs.statSync(file).size,
    });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    downloadUrl: `http://127.0.0.1:${port}/releases/download/v\${VERSION}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A file's SHA-256, hex. */
export function sha256(file: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}
