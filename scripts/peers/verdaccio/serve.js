// Runs Verdaccio with the config file given as argument, listening on an ephemeral port of 127.0.0.1,
// and prints `listening <url>` once it accepts connections (the test helper test/peers/registry.ts
// reads that line). Verdaccio's own command prints the port it was asked for, not the one it got.
const { runServer } = require("verdaccio");

runServer(process.argv[2]).then((app) => {
  const server = app.listen(0, "127.0.0.1", () => {
    process.stdout.write(`listening http://127.0.0.1:${server.address().port}/\n`);
  });
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
});
