// The engine's floor under the project's real-CLI rows (docs/guides/benchmarks.md): the same CLI (.peers/bin/pulumi),
// language host and dynamic-provider host drive N resources of a do-nothing dynamic provider
// (bench/programs/noop-many) beside the project's N Edge services on the real controller
// (bench/programs/edge-many), both also with 0 resources, and the provider's requests are sent as
// raw HTTP to the same controller at the same concurrency. Every round runs the five variants of one
// command back to back (order rotated per round), for `up`, `preview --refresh` and `destroy`, at
// each size; floorSplit.ts turns each round into the parts of the project's time.
//
// What raw HTTP sends is not written by hand: the same program runs once per command against the
// mock first, and the mock's log gives the requests per service (and those sent once per command,
// such as the login); the raw side replays exactly those, with the provider's own bodies.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Agent, request } from "undici";
import { type MockServer, type RequestLogEntry, startMockServer } from "../mock/server";
import { type CliStack, cliStack } from "../test/peers/cli";
import { type RealController, realEdgeConfig, startController } from "../test/peers/controller";
import { PEERS_BIN, peerPath } from "../test/peers/index";
import { mockConfig } from "../test/support/engine";
import { formatSpread, PROVIDER_ABOVE, type RoundTimes, split, spreadOf } from "./floorSplit";
import { type MethodSummary, previewRefreshPhases, readLog, summarise } from "./grpcLog";
import { inParallel, median, type Row, row, timed } from "./lib";

const EDGE_MANY = path.join(__dirname, "programs", "edge-many");
const NOOP_MANY = path.join(__dirname, "programs", "noop-many");
const EDGE_BASE = "/edge/management/v1";
/** The CLI's default --parallel (GOMAXPROCS x 4), given explicitly so the raw side uses the same. */
export const CLI_PARALLEL = 4 * os.cpus().length;

export const COMMANDS = {
  up: ["up", "--yes", "--skip-preview"],
  "preview --refresh": ["preview", "--refresh", "--expect-no-changes"],
  destroy: ["destroy", "--yes", "--skip-preview"],
} as const;
export type Command = keyof typeof COMMANDS;

export type Settings = {
  config: Record<string, string>;
  secretConfig: Record<string, string>;
  /** The CLI's environment for this stack (e.g. a plugin's folder first on PATH). */
  env?: NodeJS.ProcessEnv;
};

/** Stacks of the bench programs, each in a copy of its own beside the originals (root node_modules). */
export class Stacks {
  private readonly copies: string[] = [];
  private readonly stacks: CliStack[] = [];

  async make(
    program: string,
    name: string,
    settings: Settings,
    edit?: (dir: string) => void,
  ): Promise<CliStack> {
    const dir = path.join(__dirname, "programs", `.work-floor-${name}-${process.pid}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.cpSync(program, dir, { recursive: true });
    this.copies.push(dir);
    edit?.(dir);
    const stack = await cliStack(dir, { stack: name, inPlace: true, ...settings });
    this.stacks.push(stack);
    return stack;
  }

  async dispose(): Promise<void> {
    for (const stack of this.stacks) {
      // Whatever a failed run left on the controller goes with its stack.
      await stack.run(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
      await stack.dispose();
    }
    for (const dir of this.copies) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs one command of the CLI, failing with its output unless it exits 0; wall time in ms. */
export async function cliTime(
  stack: CliStack,
  command: Command,
  options: { parallel?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<number> {
  const args = [...COMMANDS[command], "--parallel", String(options.parallel ?? CLI_PARALLEL)];
  return (await timed(() => stack.ok(args, { env: options.env }))).ms;
}

export function edgeSettings(config: Record<string, string>): Settings {
  const { "frontdoor:edgePassword": password, ...rest } = config;
  return { config: rest, secretConfig: { "frontdoor:edgePassword": password } };
}

// ---- the raw side: the provider's requests, from the mock's log, replayed on the controller ----

/** A request's kind: method and path with the Edge base and ids taken out (`GET /services/{id}`). */
export function requestKind(entry: Pick<RequestLogEntry, "method" | "path" | "query">): string {
  const p = entry.path.startsWith(EDGE_BASE) ? entry.path.slice(EDGE_BASE.length) : entry.path;
  const templ = p.replace(/^\/services\/[^/]+/, "/services/{id}");
  const q = entry.query && templ !== "/authenticate" ? "?" : "";
  return `${entry.method} ${templ}${q}`;
}

/** One command's requests: those sent once, those sent for every service (in order), with samples. */
export interface Plan {
  once: string[];
  perService: string[];
  samples: Map<string, RequestLogEntry>;
}

const ORDER = ["POST", "GET", "PUT", "PATCH", "DELETE"];

/** The plan of one command from the mock's log of that command over `count` services. */
export function planOf(log: RequestLogEntry[], count: number): Plan {
  const counts = new Map<string, number>();
  const samples = new Map<string, RequestLogEntry>();
  for (const entry of log) {
    const kind = requestKind(entry);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    if (!samples.has(kind)) samples.set(kind, entry);
  }
  const once: string[] = [];
  const perService: string[] = [];
  for (const [kind, n] of counts) {
    for (let i = 0; i < Math.floor(n / count); i++) perService.push(kind);
    for (let i = 0; i < n % count; i++) once.push(kind);
  }
  const rank = (k: string) => ORDER.indexOf(k.split(" ")[0]);
  perService.sort((a, b) => rank(a) - rank(b));
  return { once, perService, samples };
}

export function describePlan(plan: Plan): string {
  const tally = (kinds: string[]) => {
    const m = new Map<string, number>();
    for (const k of kinds) m.set(k, (m.get(k) ?? 0) + 1);
    return [...m].map(([k, n]) => `${k} x ${n}`).join(", ") || "none";
  };
  return `per service: ${tally(plan.perService)}; once: ${tally(plan.once)}`;
}

/** The raw HTTP side: its own login per command and its own services, named `<prefix>-<i>`. */
export class RawEdge {
  private readonly dispatcher: Agent;
  private ids: string[] = [];

  constructor(
    private readonly ctrl: RealController,
    private readonly count: number,
    private readonly parallel: number,
    /** The services' name prefix in the mock run, replaced in the replayed bodies and queries. */
    private readonly mockPrefix: string,
    private readonly prefix: string,
  ) {
    this.dispatcher = new Agent({ connections: parallel, connect: { ca: ctrl.caPem } });
  }

  private async call(method: string, p: string, token: string | undefined, body?: string) {
    const res = await request(`${this.ctrl.url}${EDGE_BASE}${p}`, {
      method: method as "GET",
      dispatcher: this.dispatcher,
      headers: {
        accept: "application/json",
        ...(token ? { "zt-session": token } : {}),
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body,
    });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw new Error(`raw ${method} ${p}: ${res.statusCode} ${text}`);
    return text ? (JSON.parse(text) as { data?: { id?: string; token?: string } }) : {};
  }

  /** One request of `kind` for service `i` (or once, i = -1), as the provider sent it on the mock. */
  private async send(plan: Plan, kind: string, i: number, token: string): Promise<string> {
    const sample = plan.samples.get(kind) as RequestLogEntry;
    const name = (text: string) =>
      text.replace(new RegExp(`${this.mockPrefix}-\\d+`, "g"), `${this.prefix}-${i}`);
    const query = sample.query ? `?${name(sample.query)}` : "";
    if (kind === "POST /authenticate") {
      const body = JSON.stringify({ username: this.ctrl.username, password: this.ctrl.password });
      const answer = await this.call("POST", `/authenticate${query}`, undefined, body);
      return answer.data?.token as string;
    }
    const [method, templ] = kind.split(" ");
    const id = this.ids[i];
    if (templ.includes("{id}") && !id) throw new Error(`raw ${kind}: service ${i} was not created`);
    const p = templ.replace("{id}", id ?? "").replace(/\?$/, "");
    const answer = await this.call(
      method,
      `${p}${query}`,
      token,
      sample.body ? name(sample.body) : undefined,
    );
    if (kind === "POST /services") this.ids[i] = answer.data?.id as string;
    if (kind === "DELETE /services/{id}") this.ids[i] = "";
    return token;
  }

  /** Sends one command's plan; wall time in ms. */
  async run(plan: Plan): Promise<number> {
    const unknown = [...plan.samples.keys()].filter(
      (k) =>
        !/^(POST \/authenticate|POST \/services|(GET|PUT|PATCH|DELETE) \/services\/\{id\}|GET \/services\?)$/.test(
          k,
        ),
    );
    if (unknown.length) throw new Error(`the raw side cannot replay: ${unknown.join(", ")}`);
    const { ms } = await timed(async () => {
      let token = "";
      for (const kind of plan.once) token = await this.send(plan, kind, -1, token);
      const services = Array.from({ length: this.count }, (_, i) => i);
      await inParallel(services, this.parallel, async (i) => {
        for (const kind of plan.perService) await this.send(plan, kind, i, token);
      });
    });
    return ms;
  }

  /** Deletes what a failed run left, and closes the connections. */
  async close(): Promise<void> {
    const left = this.ids.filter(Boolean);
    if (left.length) {
      const body = JSON.stringify({ username: this.ctrl.username, password: this.ctrl.password });
      const login = await this.call("POST", "/authenticate?method=password", undefined, body);
      await inParallel(left, this.parallel, (id) =>
        this.call("DELETE", `/services/${id}`, login.data?.token),
      );
    }
    await this.dispatcher.close();
  }
}

/**
 * Each command's plan, from one run of the Edge program of `count` services on the mock (services
 * named `floor-mock-<i>`); `make` gives another program's stack (the plugin's YAML) for those settings.
 */
export async function plansFromMock(
  stacks: Stacks,
  count: number,
  make: (settings: Settings) => Promise<CliStack> = (settings) =>
    stacks.make(EDGE_MANY, `mock${count}`, {
      ...settings,
      config: { ...settings.config, count: String(count), prefix: "floor-mock" },
    }),
): Promise<{ plans: Record<Command, Plan>; outputs: Record<string, unknown> }> {
  const mock: MockServer = await startMockServer();
  try {
    const m = mockConfig(mock);
    const settings = edgeSettings({
      "frontdoor:edgeUrl": m["frontdoor:edgeUrl"],
      "frontdoor:edgeUsername": m["frontdoor:edgeUsername"],
      "frontdoor:edgePassword": m["frontdoor:edgePassword"],
    });
    const stack = await make(settings);
    const plans = {} as Record<Command, Plan>;
    let outputs: Record<string, unknown> = {};
    for (const command of Object.keys(COMMANDS) as Command[]) {
      mock.clearLog();
      await cliTime(stack, command);
      plans[command] = planOf(mock.log, count);
      if (command === "up") outputs = serviceOutputs(await stack.exportState());
    }
    return { plans, outputs };
  } finally {
    await mock.close();
  }
}

type StateResource = { type: string; outputs?: Record<string, unknown> };

/** The services (ours or the do-nothing provider's) in an exported state. */
function servicesIn(state: { deployment: { resources?: StateResource[] } }): StateResource[] {
  return (state.deployment.resources ?? []).filter((r) => r.type.endsWith(":Service"));
}

/**
 * A service's outputs as our provider stored them (its name, id and serialized provider left out):
 * the do-nothing provider reports the same, so the engine carries a state of the same shape.
 */
export function serviceOutputs(state: {
  deployment: { resources?: StateResource[] };
}): Record<string, unknown> {
  const service = servicesIn(state)[0];
  if (!service?.outputs) throw new Error("no service in the mock run's state");
  const { name: _name, id: _id, __provider: _provider, ...rest } = service.outputs;
  return rest;
}

/**
 * Mean size of a service's entry in the state, as JSON (what the CLI writes after every step grows by
 * this much per service): inputs, outputs, the serialized provider, the stack trace.
 */
export function serviceStateBytes(state: { deployment: { resources?: StateResource[] } }): number {
  const services = servicesIn(state);
  if (services.length === 0) throw new Error("no service in the state");
  return services.reduce((sum, r) => sum + JSON.stringify(r).length, 0) / services.length;
}

/**
 * Installs the do-nothing provider (bench/programs/noop-many/noop-provider.js) as the package
 * `bench-noop-provider` in a copy of the program, reporting `outputs` beside its inputs.
 */
export function installNoopProvider(outputs: Record<string, unknown>): (dir: string) => void {
  return (dir) => {
    const pkg = path.join(dir, "node_modules", "bench-noop-provider");
    fs.mkdirSync(pkg, { recursive: true });
    fs.copyFileSync(path.join(dir, "noop-provider.js"), path.join(pkg, "index.js"));
    fs.writeFileSync(path.join(pkg, "outputs.json"), JSON.stringify(outputs));
    fs.writeFileSync(
      path.join(pkg, "package.json"),
      JSON.stringify({ name: "bench-noop-provider", version: "0.0.0", main: "index.js" }),
    );
  };
}

// ---- the benchmark ----

/** The peers these benchmarks need that `npm run peers` has not built. */
export function missingPeers(): string[] {
  return (["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs", "ziti"] as const).filter(
    (name) => !peerPath(name),
  );
}

export function loadavg(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
}

/** The rows of one size: the split of each command, and the provider's share against raw HTTP. */
export interface FloorResult {
  rows: Row[];
  notes: string[];
  /** The split as a Markdown table: parts down, command x size across. */
  splitTable: string;
}

export async function floorBenchmark(options: { sizes: number[]; repeats: number }): Promise<FloorResult> {
  const missing = missingPeers();
  if (missing.length)
    return {
      rows: [],
      splitTable: "",
      notes: [`floor rows SKIPPED: ${missing.join(", ")} not built in ${PEERS_BIN} (run \`npm run peers\`)`],
    };
  const notes = [
    `load average at start: ${loadavg()}`,
    `--parallel ${CLI_PARALLEL} everywhere (the CLI's default here)`,
  ];
  const stacks = new Stacks();
  const ctrl = await startController();
  const raws: RawEdge[] = [];
  const times = new Map<string, RoundTimes[]>(); // key `${command} ${size}`
  const logged = new Map<number, LoggedRound[]>();
  try {
    const { plans, outputs } = await plansFromMock(stacks, Math.min(...options.sizes));
    notes.push(
      `the do-nothing provider reports the outputs our provider stored for a service: ${Object.keys(outputs).join(", ")}`,
    );
    for (const command of Object.keys(COMMANDS) as Command[])
      notes.push(
        `${command}: the provider's requests (mock log, raw side replays them): ${describePlan(plans[command])}`,
      );
    // The password reaches the provider through the environment (ZITI_PASSWORD), not the stack's
    // config: the gRPC-logged runs write the CLI's Configure request to a file, and it would hold it.
    const { config: realConfig, secretConfig } = edgeSettings(realEdgeConfig(ctrl));
    const real = { config: realConfig, secretConfig: {} };
    const passwordEnv = { ZITI_PASSWORD: secretConfig["frontdoor:edgePassword"] };
    const noSettings = { config: {}, secretConfig: {} };
    const noop0 = await stacks.make(
      NOOP_MANY,
      "noop0",
      { ...noSettings, config: { count: "0", prefix: "noop0" } },
      installNoopProvider(outputs),
    );
    const edge0 = await stacks.make(EDGE_MANY, "edge0", {
      ...real,
      config: { ...real.config, count: "0", prefix: "floor-edge0" },
    });
    const bySize = [];
    for (const size of options.sizes) {
      bySize.push({
        size,
        noopN: await stacks.make(
          NOOP_MANY,
          `noop${size}`,
          { ...noSettings, config: { count: String(size), prefix: `noop${size}` } },
          installNoopProvider(outputs),
        ),
        edgeN: await stacks.make(EDGE_MANY, `edge${size}`, {
          ...real,
          config: { ...real.config, count: String(size), prefix: `floor-cli${size}` },
        }),
        raw: new RawEdge(ctrl, size, CLI_PARALLEL, "floor-mock", `floor-raw${size}`),
      });
      raws.push(bySize[bySize.length - 1].raw);
    }
    for (let round = 0; round < options.repeats; round++) {
      for (const { size, noopN, edgeN, raw } of bySize) {
        for (const command of Object.keys(COMMANDS) as Command[]) {
          const variants: [keyof RoundTimes, () => Promise<number>][] = [
            ["noop0", () => cliTime(noop0, command)],
            ["noopN", () => cliTime(noopN, command)],
            ["edge0", () => cliTime(edge0, command, { env: passwordEnv })],
            ["edgeN", () => cliTime(edgeN, command, { env: passwordEnv })],
            ["raw", () => raw.run(plans[command])],
          ];
          const t = {} as RoundTimes;
          for (let v = 0; v < variants.length; v++) {
            const [key, work] = variants[(v + round) % variants.length];
            t[key] = await work();
          }
          const key = `${command} ${size}`;
          times.set(key, [...(times.get(key) ?? []), t]);
          if (command === "up" && round === 0) {
            const ours = serviceStateBytes(await edgeN.exportState());
            const floor = serviceStateBytes(await noopN.exportState());
            notes.push(
              `state per service after up of ${size} (JSON, mean): ${Math.round(ours)} bytes, do-nothing ` +
                `${Math.round(floor)} bytes (${(ours / floor).toFixed(2)}x)`,
            );
          }
          // After the round's timed runs (the log's writes would weigh on them): where the time
          // goes, from the CLI's gRPC log of one more run of each.
          if (command === "preview --refresh")
            logged.set(size, [
              ...(logged.get(size) ?? []),
              {
                noop: await grpcSummary(noopN, command),
                edge: await grpcSummary(edgeN, command, passwordEnv),
              },
            ]);
          process.stdout.write(
            `  round ${round + 1} ${key}: ${JSON.stringify(t, (_, v) => (typeof v === "number" ? Math.round(v) : v))}\n`,
          );
        }
      }
    }
  } finally {
    for (const raw of raws) await raw.close().catch(() => undefined);
    await stacks.dispose();
    await ctrl.stop();
  }
  notes.push(`load average at end: ${loadavg()}`);
  const rows: Row[] = [];
  const columns: string[] = [];
  const cells = new Map<string, string[]>();
  for (const [key, rounds] of times) {
    const s = split(rounds);
    columns.push(`${key}`);
    for (const part of s.parts)
      cells.set(part.name, [...(cells.get(part.name) ?? []), formatSpread(part.ms, "ms")]);
    const ratioName = "provider above the floor / raw HTTP (per round)";
    cells.set(ratioName, [...(cells.get(ratioName) ?? []), formatSpread(s.providerOverApi, "x")]);
    const provider = s.parts.find((p) => p.name === PROVIDER_ABOVE) as (typeof s.parts)[number];
    rows.push(
      row(
        `Provider's share above the engine's floor vs raw HTTP of the same requests: ${key} Edge services, real controller (medians of ${rounds.length} interleaved rounds)`,
        provider.ms.median,
        median(rounds.map((t) => t.raw)),
        1.2,
      ),
    );
  }
  const splitTable = [
    `| part (median, min to max over ${options.repeats} rounds) | ${columns.join(" | ")} |`,
    `|---|${columns.map(() => "---").join("|")}|`,
    ...[...cells].map(([name, values]) => `| ${name} | ${values.join(" | ")} |`),
  ].join("\n");
  const phaseTables = [...logged].map(([size, rounds]) => phaseTable(size, rounds));
  return { rows, notes, splitTable: [splitTable, ...phaseTables].join("\n\n") };
}

/**
 * One run of `command` with the CLI's gRPC log on (in a temp file, removed): the log holds the
 * provider's configuration, so credentials go in `env`, never in the stack's config.
 */
async function grpcSummary(
  stack: CliStack,
  command: Command,
  env: NodeJS.ProcessEnv = {},
): Promise<MethodSummary[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-grpc-log-"));
  try {
    const file = path.join(dir, "grpc.json");
    await cliTime(stack, command, { env: { ...env, PULUMI_DEBUG_GRPC: file } });
    return summarise(readLog(file));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface LoggedRound {
  noop: MethodSummary[];
  edge: MethodSummary[];
}

/**
 * The phases of the logged preview --refresh runs, do-nothing beside the project, and the calls' mean
 * times: each a median (min to max) over rounds, the difference taken inside each round.
 */
export function phaseTable(size: number, rounds: LoggedRound[]): string {
  const phases = rounds.map((r) => ({
    noop: previewRefreshPhases(r.noop),
    edge: previewRefreshPhases(r.edge),
  }));
  const mean = (s: MethodSummary[], m: string) => s.find((x) => x.method === m)?.meanMs ?? Number.NaN;
  const cells = (values: (r: number) => [number, number]) => {
    const pairs = rounds.map((_, i) => values(i));
    const f = (xs: number[]) => formatSpread(spreadOf(xs), "ms");
    return `${f(pairs.map((p) => p[0]))} | ${f(pairs.map((p) => p[1]))} | ${f(pairs.map((p) => p[1] - p[0]))}`;
  };
  const lines = [
    `| preview --refresh ${size}, with the CLI's gRPC log on (median, min to max over ${rounds.length} rounds) | do-nothing | project | difference |`,
    "|---|---|---|---|",
    ...phases[0].noop.map(
      (p, k) => `| ${p.name} | ${cells((i) => [phases[i].noop[k].ms, phases[i].edge[k].ms])} |`,
    ),
    ...["Read", "Check", "Diff"].map(
      (m) =>
        `| mean ${m} call (as the CLI times it) | ${cells((i) => [mean(rounds[i].noop, m), mean(rounds[i].edge, m)])} |`,
    ),
  ];
  return lines.join("\n");
}

/** How to read the split (printed under it, kept with the code that measures it). */
export const floorReading = `## Reading the split

- Every part is a difference of wall times taken inside one round, then summarised over rounds:
  start-up = the do-nothing program with 0 resources (CLI, language host, Node, ts-node, Pulumi's
  runtime); program's own start = the project's program with 0 resources minus that (importing and
  type-checking pulumi-frontdoor); engine per-step cost = the do-nothing program with N resources
  minus its 0-resource run (the engine's steps and checkpoints, the dynamic-provider host's gRPC, the
  program's N registrations); provider above the floor = the project's N minus its 0-resource run,
  minus the engine's per-step cost (our host's start-up and CPU, our requests' time, the SDK classes'
  registrations above a bare dynamic resource, our larger state in every checkpoint); API = the same
  requests sent as raw HTTP (undici, same concurrency), the provider's share's lower bound.
- \`destroy\` does not run the program: its start-up and program-start parts are the CLI's alone.
- The do-nothing provider reports the same outputs as ours (a service's outputs from the mock run's
  state) and its class declares them as output properties: the engine carries state of the same
  shape per step, and the program resolves the same outputs, for both. What is left above the floor
  is our hosts' work (module loading, configure, check, diff, the requests), the API's time, and the
  state's size per service (in the notes): the SDK's class adds stack frames to the trace Pulumi
  stores with each resource, and the serialized provider names a longer module path.
- The phase table comes from extra runs with the CLI's gRPC log on (PULUMI_DEBUG_GRPC), one per
  round, after the timed runs: the CLI refreshes every resource first (Read), then runs the program,
  whose registrations its step generator checks and diffs one after another (Check, Diff).`;
