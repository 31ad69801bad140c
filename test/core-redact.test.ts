// Redaction (provider/redact.ts): every registered secret is masked in each form it travels in, the
// forms computed here independently (Node's encoders), at every byte alignment inside a longer
// base64 value; nothing else is masked. The registry is process-wide: each test uses its own values,
// and a test that needs a value not registered yet makes a new one (unique()): Stryker's in-process
// runner runs a test again for each mutant in the same process.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { encodedForms, redact, registerSecret } from "../provider/redact";

const MASK = "[secret]";

/** `length` random letters and digits: a value no earlier run of the test has registered. */
const unique = (length: number) =>
  [...randomBytes(length)].map((b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");

/** The encoded forms a secret is sent or echoed in, from Node's own encoders. */
function forms(secret: string): string[] {
  const b64 = Buffer.from(secret).toString("base64");
  return [
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    b64,
    Buffer.from(secret).toString("base64url"),
  ];
}

describe("redaction (provider/redact.ts)", () => {
  it("masks each encoded form of a secret whole, and leaves text without secrets as it is", () => {
    const secret = `r3d/act me+"now"&then=ä${unique(6)}`; // 30 bytes: unpadded base64
    registerSecret(secret);
    for (const form of forms(secret)) {
      const out = redact(`before ${form} after`);
      assert.equal(out, `before ${MASK} after`, `form ${form}`);
    }
    assert.equal(redact("nothing secret here"), "nothing secret here");
    assert.equal(redact(""), "");
  });

  it("masks every occurrence, not only the first", () => {
    const secret = `repeat-me-${unique(8)}`;
    registerSecret(secret);
    assert.equal(redact(`${secret} / ${secret}`), `${MASK} / ${MASK}`);
  });

  it("masks a secret inside a longer base64 value at each of the three byte alignments", () => {
    const secret = `aligned-secret-${unique(8)}`;
    registerSecret(secret);
    for (const prefix of ["", "a", "ab", "abc", "user:", "admin:"]) {
      // The characters that encode the secret's bytes alone at this alignment (whatever precedes it):
      // base64 of the secret after prefix.length % 3 zero bytes, without its first quantum.
      const offset = prefix.length % 3;
      const aligned = Buffer.concat([Buffer.alloc(offset), Buffer.from(secret)]).toString("base64");
      for (const encode of ["base64", "base64url"] as const) {
        const blob = Buffer.from(`${prefix}${secret}!trailer`).toString(encode);
        const out = redact(`Basic ${blob}`);
        assert.ok(out.includes(MASK), `prefix ${JSON.stringify(prefix)} ${encode}: ${out}`);
        // What is left of the secret's encoding is at most its edges (characters shared with neighbours).
        // (At offset 0 the first quantum is the secret's own too.)
        const middle = aligned.slice(offset === 0 ? 0 : 4, 24);
        const inBlob = encode === "base64" ? middle : middle.replace(/\+/g, "-").replace(/\//g, "_");
        assert.ok(blob.includes(inBlob), "the test's own arithmetic");
        assert.ok(!out.includes(inBlob.slice(0, 12)), `prefix ${JSON.stringify(prefix)} ${encode}: ${out}`);
        // Not even the first quantum, where it is the secret's alone.
        if (offset === 0) assert.ok(!out.includes(inBlob.slice(0, 4)), `${JSON.stringify(prefix)}: ${out}`);
      }
    }
  });

  it("masks the URL-safe base64 of a secret whose base64 has + and /", () => {
    // "~~~" encodes as "fn5+", "???" as "Pz8/": both characters differ in the URL-safe alphabet.
    const secret = `~~~???~~~???${unique(6)}`;
    registerSecret(secret);
    const url = Buffer.from(secret).toString("base64url");
    assert.match(url, /-.*_/);
    assert.equal(redact(`token=${url}`), `token=${MASK}`);
    for (const prefix of ["x", "xy"]) {
      const blob = Buffer.from(`${prefix}${secret}`).toString("base64url");
      assert.ok(redact(blob).includes(MASK), `${prefix}: ${redact(blob)}`);
    }
  });

  it("masks the longer of two overlapping secrets whole", () => {
    const inner = `overlap-${unique(8)}`;
    registerSecret(inner);
    registerSecret(`outer-${inner}-and-more`);
    assert.equal(redact(`x outer-${inner}-and-more y`), `x ${MASK} y`);
    assert.equal(redact(`x ${inner} y`), `x ${MASK} y`);
  });

  it("a secret registered after a redaction is masked too (the sorted list is rebuilt)", () => {
    const late = `late-registered-${unique(8)}`;
    assert.equal(redact(late), late);
    registerSecret(late);
    assert.equal(redact(late), MASK);
    // Registering again changes nothing.
    registerSecret(late);
    assert.equal(redact(`a ${late} b`), `a ${MASK} b`);
  });

  it("ignores values that are no strings or shorter than 4 characters; 4 is enough", () => {
    const [object, array, four] = [`object-${unique(8)}`, `array-${unique(8)}`, unique(4)];
    // 3 characters whose URL, JSON and base64 forms are 4 characters or more: none is masked either.
    const short = `${unique(1)}"/`;
    for (const value of [undefined, null, 12345678, { s: object }, [array], short]) registerSecret(value);
    const text = `12345678 ${object} ${array} ${short} ${encodedForms(short).join(" ")}`;
    assert.equal(redact(text), text);
    registerSecret(four);
    assert.equal(redact(four), MASK);
    assert.equal(redact("d3h4"), "d3h4");
  });

  it("encodedForms: the secret, its URL, form and JSON forms, and base64 fragments of >= 8 characters", () => {
    const secret = "p@ss w/rd+";
    const got = new Set(encodedForms(secret));
    // (Unpadded base64url is covered by its fragment: only the characters at its edge are left.)
    for (const form of forms(secret).slice(0, -1)) assert.ok(got.has(form), `missing ${form}`);
    // The three alignments: the secret's bytes after 0, 1 and 2 other bytes, without the edge
    // characters that mix in a neighbour's bits.
    const bytes = Buffer.from(secret);
    for (const offset of [1, 2]) {
      const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
      const fragment = encoded.slice(4, Math.floor((offset + bytes.length) / 3) * 4);
      assert.ok(got.has(fragment), `offset ${offset}: ${fragment}`);
      assert.ok(got.has(fragment.replace(/\+/g, "-").replace(/\//g, "_")), `offset ${offset} url-safe`);
    }
    for (const form of got) assert.ok(form.length >= 4, form);
    // A short secret has no fragments shorter than 8 characters beyond its own full base64.
    const short = encodedForms("abcd");
    const base64Like = short.filter((f) => f !== "abcd");
    assert.deepEqual(base64Like, [Buffer.from("abcd").toString("base64")]);
  });
});
