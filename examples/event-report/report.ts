// Event report as a plain script (no Pulumi engine): prints the top talkers of the last 24 h and the
// most recent alerts as small tables. Run from the repository root:
//   FRONTDOOR_SEARCH_URL=... FRONTDOOR_SEARCH_USERNAME=... FRONTDOOR_SEARCH_PASSWORD=... \
//     npx ts-node --transpile-only examples/event-report/report.ts [from] [alert count]
import * as frontdoor from "pulumi-frontdoor";

function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows].map((row) => row.map(String));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

async function main(): Promise<void> {
  const from = process.argv[2] ?? "now-24h";
  const size = Number(process.argv[3] ?? 10);
  const [talkers, alerts] = await Promise.all([
    frontdoor.getTopTalkers({ from, size: 5, addressesPerSource: 3 }),
    frontdoor.searchAlerts({ from, size }),
  ]);
  console.log(`Top talkers since ${from}`);
  const rows = talkers.sources.flatMap((s) =>
    s.addresses.map((a, i) => [i === 0 ? s.sourceId : "", i === 0 ? s.totalTx : "", a.address, a.totalRx]),
  );
  console.log(table(["SOURCE", "TX", "ADDRESS", "RX"], rows));
  console.log(`\nAlerts since ${from}: ${alerts.total} (newest ${alerts.alerts.length})`);
  console.log(
    table(
      ["TIME", "SEVERITY", "SOURCE TYPE", "MESSAGE"],
      alerts.alerts.map((a) => [a.timestamp, a.severity ?? "", a.eventSourceType ?? "", a.message ?? ""]),
    ),
  );
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exitCode = 1;
});
