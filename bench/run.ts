// `npm run bench`: every benchmark, each compared with a baseline measured in the same run where one
// applies; prints the table and writes bench/results.md with the command and the machine.
import * as fs from "node:fs";
import * as path from "node:path";
import { crudBenchmark } from "./crud";
import { harnessBenchmarks } from "./harness";
import { machine, type Row, table } from "./lib";
import { readinessBenchmark } from "./readiness";

async function main(): Promise<void> {
  const started = Date.now();
  const rows: Row[] = [];
  const notes: string[] = [];
  const step = async (name: string, work: () => Promise<Row[] | { rows: Row[]; notes: string[] }>) => {
    process.stdout.write(`${name}...\n`);
    const result = await work();
    if (Array.isArray(result)) rows.push(...result);
    else {
      rows.push(...result.rows);
      notes.push(...result.notes);
    }
  };
  await step("provider CRUD vs raw undici", () => crudBenchmark(200));
  await step("custom frontend readiness", readinessBenchmark);
  await step("harness: up, refresh, storm, memory", harnessBenchmarks);
  const text = [
    "# Benchmark results",
    "",
    `Command: \`npm run bench\` · ${new Date().toISOString()} · ${((Date.now() - started) / 1000).toFixed(0)} s`,
    `Machine: ${machine()}`,
    "",
    table(rows),
    "",
    ...notes.map((n) => `- ${n}`),
    "",
  ].join("\n");
  fs.writeFileSync(path.join(__dirname, "results.md"), text);
  console.log(`\n${text}`);
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
