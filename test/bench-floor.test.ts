// The floor benchmark's arithmetic (bench/floorSplit.ts, bench/floor.ts): the parts of a round, their
// spread over rounds, and the raw side's plan read from a mock log. No timing is measured here.
import * as assert from "node:assert/strict";
import { planOf, requestKind } from "../bench/floor";
import { formatSpread, split } from "../bench/floorSplit";

describe("bench floor: splitting the project's time", () => {
  // Three rounds; the expected parts are worked out by hand from these figures.
  const rounds = [
    { noop0: 2000, noopN: 3000, edge0: 2500, edgeN: 4000, raw: 400 }, // provider 4000-2500-1000 = 500
    { noop0: 2200, noopN: 3400, edge0: 2600, edgeN: 4600, raw: 500 }, // provider 4600-2600-1200 = 800
    { noop0: 1900, noopN: 2800, edge0: 2400, edgeN: 3700, raw: 200 }, // provider 3700-2400-900 = 400
  ];

  it("takes each part inside a round, then min / median / max over rounds", () => {
    const s = split(rounds);
    const part = (name: string) => s.parts.find((p) => p.name.startsWith(name))?.ms;
    assert.deepEqual(part("CLI + language host"), { min: 1900, median: 2000, max: 2200 });
    assert.deepEqual(part("program's own start"), { min: 400, median: 500, max: 500 });
    assert.deepEqual(part("engine per-step"), { min: 900, median: 1000, max: 1200 });
    assert.deepEqual(part("provider above the floor"), { min: 400, median: 500, max: 800 });
    assert.deepEqual(part("API"), { min: 200, median: 400, max: 500 });
    assert.deepEqual(part("whole command"), { min: 3700, median: 4000, max: 4600 });
    // Per-round ratios 1.25, 1.6, 2: not the ratio of the medians (500 / 400).
    assert.deepEqual(s.providerOverApi, { min: 1.25, median: 1.6, max: 2 });
  });

  it("prints a spread as median (min to max)", () => {
    assert.equal(formatSpread({ min: 1.25, median: 1.6, max: 2 }, "x"), "1.60 (1.25 to 2.00)x");
    assert.equal(formatSpread({ min: 399.6, median: 400.4, max: 500 }, "ms"), "400 (400 to 500) ms");
  });

  it("refuses to summarise no rounds", () => {
    assert.throws(() => split([]), /no rounds/);
  });
});

describe("bench floor: the raw side's plan from the mock's log", () => {
  const base = "/edge/management/v1";
  const entry = (method: string, path: string, query?: string) => ({
    method,
    path,
    status: 200,
    at: "",
    query,
  });

  it("names requests by method and path template, ids taken out", () => {
    assert.equal(requestKind(entry("GET", `${base}/services/3xA9`)), "GET /services/{id}");
    assert.equal(requestKind(entry("POST", `${base}/authenticate`, "method=password")), "POST /authenticate");
    assert.equal(requestKind(entry("GET", `${base}/services`, 'filter=name="a"')), "GET /services?");
  });

  it("splits the log of N services into per-service requests (creates first, deletes last) and those sent once", () => {
    const log = [
      entry("POST", `${base}/authenticate`, "method=password"),
      ...[0, 1, 2].flatMap((i) => [
        entry("GET", `${base}/services/id${i}`),
        entry("POST", `${base}/services`),
      ]),
      entry("POST", `${base}/authenticate`, "method=password"),
    ];
    const plan = planOf(log, 3);
    assert.deepEqual(plan.perService, ["POST /services", "GET /services/{id}"]);
    assert.deepEqual(plan.once, ["POST /authenticate", "POST /authenticate"]);
    assert.equal(plan.samples.get("GET /services/{id}")?.path, `${base}/services/id0`);
  });
});
