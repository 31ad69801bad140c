// Provider CRUD against raw undici calls for the same objects: what the provider's layers (zod check,
// diff, retries, error mapping, output normalisation) cost over the bare HTTP requests.
import { Pool, request } from "undici";
import { startMockProcess } from "../test/mock/process";
import { configureFor, createChecked, engine, mockConfig, updateChecked } from "../test/support/engine";
import { inParallel, median, type Row, row, timed } from "./lib";

const PARALLEL = 16;
// Steady state: in a fresh process the provider's larger body of code takes longer to be optimised
// by V8 than raw undici's few calls (measured: the first 3 rounds ran at 1.5-1.8x, rounds 4-14 at
// 1.1-1.3x, later ones at 1.03-1.05x). The warm-up rounds are reported in the notes, not hidden.
const WARMUP_ROUNDS = 20;
const ROUNDS = 31;

const body = (i: number) => ({
  name: `bench-${i}`,
  type: "OIDC",
  data: {
    issuer: "https://login.example.com",
    client_id: `c${i}`,
    client_secret: `bench-secret-${i}`,
    scopes: ["openid"],
    supports_pkce: false,
  },
});

export async function crudBenchmark(count: number, latencyMs = 0): Promise<{ rows: Row[]; notes: string[] }> {
  // The server runs in its own process, as a remote API would: the client side is what is compared.
  const mock = await startMockProcess();
  // Optional API latency on every request (a LAN or cloud API is never at loopback speed).
  if (latencyMs)
    await mock.control("POST", "faults/random", { seed: 1, rate: 1, kinds: ["delay"], delayMs: latencyMs });
  const fd = mock.credentials.frontdoorId;
  const headers = {
    authorization: `Bearer ${mock.credentials.frontdoorToken}`,
    "content-type": "application/json",
    accept: "application/json",
  };
  const pool = new Pool(mock.url, { connections: PARALLEL });
  const items = Array.from({ length: count }, (_, i) => i);
  const path = `/frontdoor/${fd}/auth-providers`;
  const call = async (method: "POST" | "GET" | "PATCH" | "DELETE", p: string, payload?: unknown) => {
    const res = await request(`${mock.url}${p}`, {
      method,
      headers,
      body: payload ? JSON.stringify(payload) : undefined,
      dispatcher: pool,
    });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw new Error(`${method} ${p}: ${res.statusCode} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  // Wall time, and the CPU time of this process (the client: the server runs in its own process),
  // which is the provider's own cost and far less disturbed by other load on a shared machine.
  const measured = async (work: () => Promise<void>) => {
    const cpu = process.cpuUsage();
    const { ms } = await timed(work);
    const used = process.cpuUsage(cpu);
    return { ms, cpuMs: (used.user + used.system) / 1000 };
  };
  const rawRound = () =>
    measured(async () => {
      const ids = await inParallel(
        items,
        PARALLEL,
        async (i) => (await call("POST", path, body(i))).id as string,
      );
      await inParallel(ids, PARALLEL, (id) => call("GET", `${path}/${id}`));
      await inParallel(ids, PARALLEL, (id, i) =>
        call("PATCH", `${path}/${id}`, { name: `bench-${i}-renamed` }),
      );
      await inParallel(ids, PARALLEL, (id) => call("DELETE", `${path}/${id}`));
    });

  await configureFor(mockConfig(mock));
  const providerRound = () =>
    measured(async () => {
      const created = await inParallel(items, PARALLEL, (i) => createChecked("AuthProvider", body(i)));
      await inParallel(created, PARALLEL, (c) => engine.read("AuthProvider", c.id, c.outs));
      const updated = await inParallel(
        created,
        PARALLEL,
        async (c, i) =>
          (await updateChecked("AuthProvider", c.id, c.outs, { ...body(i), name: `bench-${i}-renamed` }))
            .result!.outs,
      );
      await inParallel(created, PARALLEL, (c, i) => engine.remove("AuthProvider", c.id, updated[i]));
    });
  // Alternate the two, after warm-up rounds of each (both sides' JIT, the server's too), and compare
  // medians: warm-up and GC would otherwise favour whichever runs second.
  const raw: Array<{ ms: number; cpuMs: number }> = [];
  const provider: Array<{ ms: number; cpuMs: number }> = [];
  const warmRaw: typeof raw = [];
  const warmProvider: typeof raw = [];
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    const r = await rawRound();
    const p = await providerRound();
    (round >= WARMUP_ROUNDS ? raw : warmRaw).push(r);
    (round >= WARMUP_ROUNDS ? provider : warmProvider).push(p);
  }
  await pool.close();
  await mock.close();
  const where = latencyMs ? `${latencyMs} ms API latency` : "loopback";
  const of = (list: typeof raw, key: "ms" | "cpuMs") => list.map((m) => m[key]);
  const spread = (values: number[]) =>
    `${fmt(Math.min(...values))} / ${fmt(median(values))} / ${fmt(Math.max(...values))}`;
  return {
    rows: [
      row(
        `Provider CRUD of ${count} auth providers vs raw undici (4 x ${count} requests, ${PARALLEL} in flight, ${where}), wall time, median of ${ROUNDS} interleaved rounds`,
        median(of(provider, "ms")),
        median(of(raw, "ms")),
        1.1,
      ),
      row(
        `Provider CRUD of ${count} auth providers vs raw undici (${where}), client CPU time, median of ${ROUNDS}`,
        median(of(provider, "cpuMs")),
        median(of(raw, "cpuMs")),
        undefined,
      ),
    ],
    notes: [
      `CRUD ${where}, min / median / max of ${ROUNDS} rounds: wall provider ${spread(of(provider, "ms"))} ms, ` +
        `raw ${spread(of(raw, "ms"))} ms; client CPU provider ${spread(of(provider, "cpuMs"))} ms, raw ${spread(of(raw, "cpuMs"))} ms`,
      `CRUD ${where}, the ${WARMUP_ROUNDS} warm-up rounds before (JIT), wall time: first 3 rounds provider ` +
        `${warmProvider
          .slice(0, 3)
          .map((m) => fmt(m.ms))
          .join(", ")} ms, raw ${warmRaw
          .slice(0, 3)
          .map((m) => fmt(m.ms))
          .join(", ")} ms; ` +
        `median of all ${WARMUP_ROUNDS}: provider ${fmt(median(of(warmProvider, "ms")))} ms, raw ${fmt(median(of(warmRaw, "ms")))} ms`,
    ],
  };
}

const fmt = (n: number) => n.toFixed(1);

/** The "Reading the figures" entry of these rows (bench/results.md). */
export const crudReading = `- **Provider CRUD vs raw undici.** Both sides send the same 800 requests (POST, GET, PATCH, DELETE
  of 200 auth providers; checked in the mock's log), 16 at a time, to the mock in its own process,
  in interleaved rounds. Profiled (node --cpu-prof, 60 rounds) before the changes, \`check\` cost 22 us
  per call: re-deriving the encoded forms of every secret input on every check (8.5 us), three
  \`new URL\` setting checks per check (4.5 us), rest-destructuring with computed keys, and the
  secret-leaf and diff rules re-derived from the schema per call; every request also went through
  undici's Agent (origin lookup, URL parsing) and an await of static auth headers. Now: secrets are
  registered once, settings judged once per configure, rules derived once per definition, one Pool
  per client origin called with the path; \`check\` is 6.7 us (zod 1.3 us), diff 2.3 us, measured in
  isolation. The provider's HTTP layer alone (its client, the same 800 requests) now uses less CPU
  than raw undici's request() (17 vs 19 ms median, quiet machine). callgrind (user-space instructions
  per round, 6-round minus 2-round run): raw 196 M, provider before 917 M, after 331-406 M (V8's
  background compilation makes counts under valgrind vary by about 20%). On the quiet machine the
  wall-time ratio at loopback was 1.06x (met) in one run and 1.39x-1.53x (MISSED) in the four
  others; at 2 ms latency 0.98x-1.04x (met). The fastest rounds are within 1.03-1.06x in wall time and 1.09-1.12x in client CPU
  (20.0 vs 18.4 ms, 20.4 vs 18.2 ms): the per-request code is near the target, and the medians are
  pulled up by slow provider rounds (CPU max 54-61 ms vs raw 26-34 ms), where the profile's largest
  single line is garbage collection: the provider's layers allocate more per operation (state
  copies for secret leaves, the plain-data copy of outputs, promise chains), and the collections
  land in its rounds. Reducing those allocations is what is left to reach 1.10x at the median.`;
