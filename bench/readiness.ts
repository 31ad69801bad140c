// Custom frontend readiness lag: how long after the service turns PENDING (DNS records readable) the
// provider's create returns. The poll interval (100 ms doubling, capped) bounds it.
import { startMockServer } from "../mock/server";
import { configureFor, createChecked, engine, mockConfig } from "../test/support/engine";
import { median, type Row, row, timed } from "./lib";

const READY_AFTER_MS = [300, 800, 1500, 2500, 4000];

export async function readinessBenchmark(): Promise<Row[]> {
  const lags: number[] = [];
  for (const readyAfter of READY_AFTER_MS) {
    const mock = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: readyAfter } });
    await configureFor(mockConfig(mock));
    const { ms, value } = await timed(() =>
      createChecked("CustomFrontend", { hostname: `lag-${readyAfter}.example.com` }),
    );
    lags.push(ms - readyAfter);
    await engine.remove("CustomFrontend", value.id, value.outs);
    await mock.close();
  }
  return [
    row(
      `Custom frontend readiness lag, worst of ${lags.length} (PENDING after ${READY_AFTER_MS.join("/")} ms)`,
      Math.max(...lags),
      undefined,
      1000,
    ),
    row("Custom frontend readiness lag, median", median(lags), undefined, 1000),
  ];
}
