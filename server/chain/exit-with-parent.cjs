// Preloaded into the local chain's process (node --require): its stdin is a pipe from the Plume
// server, which the kernel closes when the server ends, however it ends (SIGKILL and an
// out-of-memory kill included). The chain then ends too, instead of holding its port.
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();
