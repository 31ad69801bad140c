// The floor benchmark's arithmetic (bench/floorSplit.ts, bench/floor.ts): the parts of a round, their
// spread over rounds, and the raw side's plan read from a mock log. No timing is measured here.
import * as assert from "node:assert/strict";
import { planOf, requestKind, serviceOutputs, serviceStateBytes } from "../bench/floor";
import { formatSpread, split } from "../bench/floorSplit";
import { previewRefreshPhases, summarise } from "../bench/grpcLog";

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

describe("bench floor: phases of a preview --refresh from the CLI's gRPC log", () => {
  // A log as PULUMI_DEBUG_GRPC writes it: times worked out by hand (ms after the first entry).
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
  const call = (method: string, startMs: number, endMs: number) => [
    { method: `/pulumirpc.${method}`, progress: "request_started", timestamp: at(startMs) },
    {
      method: `/pulumirpc.${method}`,
      progress: "response_completed",
      timestamp: at(endMs),
      duration: (endMs - startMs) * 1e6,
    },
  ];
  const log = [
    ...call("LanguageRuntime/GetPluginInfo", 0, 1),
    ...call("ResourceProvider/Handshake", 600, 605),
    ...call("ResourceProvider/Read", 610, 620),
    ...call("ResourceProvider/Read", 612, 640),
    ...call("ResourceProvider/Diff", 641, 642),
    ...call("LanguageRuntime/Run", 650, 4000),
    // The monitor's server-side entries: no usable start, left out.
    {
      method: "/pulumirpc.ResourceMonitor/RegisterResource",
      progress: "response_completed",
      timestamp: at(900),
      duration: 9e18,
    },
    ...call("ResourceProvider/Handshake", 3000, 3005),
    ...call("ResourceProvider/Check", 3010, 3012),
    ...call("ResourceProvider/Diff", 3013, 3016),
  ];

  it("sums each client-side method: calls, mean, first start to last end", () => {
    const s = summarise(log);
    assert.deepEqual(
      s.map((m) => m.method),
      ["GetPluginInfo", "Handshake", "Read", "Diff", "Run", "Check"],
    );
    assert.deepEqual(
      s.find((m) => m.method === "Read"),
      {
        method: "Read",
        calls: 2,
        meanMs: 19,
        fromMs: 610,
        toMs: 640,
      },
    );
    assert.deepEqual(
      s.find((m) => m.method === "Diff"),
      {
        method: "Diff",
        calls: 2,
        meanMs: 2,
        fromMs: 641,
        toMs: 3016,
      },
    );
  });

  it("splits it into host start, refresh, the program up to its first check, and the checks and diffs", () => {
    assert.deepEqual(previewRefreshPhases(summarise(log)), [
      { name: "CLI start to the provider host's start", ms: 600 },
      { name: "refresh: first Read to last Read", ms: 30 },
      { name: "program: Run to its first resource's Check", ms: 2360 },
      { name: "checks and diffs: first Check to last Diff", ms: 6 },
    ]);
    assert.throws(
      () => previewRefreshPhases(summarise(log.slice(0, 4))),
      /not the log of a preview --refresh/,
    );
  });

  it("takes a service's outputs from the state, without name, id and the serialized provider", () => {
    const state = {
      deployment: {
        resources: [
          { type: "pulumi:pulumi:Stack", outputs: { declared: 1 } },
          {
            type: "pulumi-nodejs:dynamic:frontdoor:Service",
            outputs: { name: "a", id: "x", __provider: "p", configs: [], tags: {} },
          },
        ],
      },
    };
    assert.deepEqual(serviceOutputs(state), { configs: [], tags: {} });
    assert.throws(() => serviceOutputs({ deployment: { resources: [] } }), /no service/);
  });

  it("measures a service's entry in the state as JSON bytes, the mean over the services", () => {
    const service = (name: string) => ({ type: "pulumi-nodejs:dynamic/noop:Service", inputs: { name } });
    const state = {
      deployment: {
        resources: [{ type: "pulumi:pulumi:Stack", outputs: { declared: 2 } }, service("a"), service("abc")],
      },
    };
    // {"type":"pulumi-nodejs:dynamic/noop:Service","inputs":{"name":"a"}} is 67 characters; "abc" adds 2.
    assert.equal(serviceStateBytes(state), 68);
    assert.throws(() => serviceStateBytes({ deployment: { resources: [] } }), /no service/);
  });
});
