// A job of the lanes runner's own test: its mocha process dies while loading, before any report.
console.error("lane fixture: dying before any report");
process.exit(3);
