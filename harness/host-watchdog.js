// Preloaded into the dynamic-provider host (`node --require host-watchdog.js ...`): the host exits as
// soon as the harness that started it is gone, even when the harness was killed with SIGKILL and had
// no chance to stop it. The harness holds the other end of the host's stdin; the kernel closes it
// when the harness dies, whatever the cause, and the host then sees the end of its input.
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();
