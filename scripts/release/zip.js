// A minimal, deterministic zip writer (deflate, fixed timestamps, entries in the order given) for the
// release's zip artifacts: the Go module zip a GOPROXY serves and the Python wheel. Node has no zip
// writer; the format needs only these records (PKWARE APPNOTE 4.3: local file header, central
// directory header, end of central directory), and Go's and Python's own readers check the result
// (test/release.test.ts, test/release-registry.test.ts).
const fs = require("node:fs");
const zlib = require("node:zlib");

// 1980-01-01 00:00 in MS-DOS date/time, the earliest a zip can say: the same bytes on every build.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/**
 * Writes `file` holding `entries` ({ name, data: Buffer|string, mode? }), in that order. Names use `/`;
 * `mode` (e.g. 0o755) is recorded as Unix permissions for readers that keep them.
 */
function writeZip(file, entries) {
  const parts = [];
  const central = [];
  let offset = 0;
  for (const entry of entries) {
    if (entry.name.startsWith("/") || entry.name.includes("\\") || entry.name.split("/").includes(".."))
      throw new Error(`zip entry ${entry.name}: not a relative path with /`);
    const name = Buffer.from(entry.name, "utf8");
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, "utf8");
    const deflated = zlib.deflateRawSync(data, { level: 9 });
    const crc = zlib.crc32(data);
    // Bit 11: names are UTF-8. Method 8: deflate.
    const fixed = (header) => {
      header.writeUInt16LE(20, 0); // version needed: 2.0
      header.writeUInt16LE(0x0800, 2);
      header.writeUInt16LE(8, 4);
      header.writeUInt16LE(DOS_TIME, 6);
      header.writeUInt16LE(DOS_DATE, 8);
      header.writeUInt32LE(crc, 10);
      header.writeUInt32LE(deflated.length, 14);
      header.writeUInt32LE(data.length, 18);
      header.writeUInt16LE(name.length, 22);
      return header;
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fixed(local.subarray(4));
    local.writeUInt16LE(0, 28); // no extra field
    parts.push(local, name, deflated);

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0 (so the mode below counts)
    fixed(header.subarray(6));
    header.writeUInt16LE(0, 30); // extra
    header.writeUInt16LE(0, 32); // comment
    header.writeUInt16LE(0, 34); // disk
    header.writeUInt16LE(0, 36); // internal attributes
    header.writeUInt32LE((((entry.mode ?? 0o644) | 0o100000) << 16) >>> 0, 38); // regular file + mode
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + deflated.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  if (entries.length > 0xffff || offset > 0xffffffff)
    throw new Error(`${file}: too large for a zip without zip64`);
  fs.writeFileSync(file, Buffer.concat([...parts, directory, end]));
}

/** Every file under `dir` (recursively), relative with `/`, sorted: the order entries are written in. */
function listFiles(dir, under = "") {
  const files = [];
  for (const entry of fs.readdirSync(`${dir}/${under}`, { withFileTypes: true })) {
    const rel = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...listFiles(dir, rel));
    else if (entry.isFile()) files.push(rel);
  }
  return files.sort();
}

module.exports = { writeZip, listFiles };
