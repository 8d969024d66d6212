// `npm start`: builds the browser app and the server bundle when they are missing or older than their
// sources, each build in a process of its own that ends with it, then runs the bundled server in this
// process. Plain JavaScript run by node itself: neither tsx nor a bundler stays in memory beside the
// server (docs/decisions/0045-footprint-of-the-embedded-default.md).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Newest modification time of any file below these paths. */
function newestChange(paths) {
  let newest = 0;
  const visit = (path) => {
    const stats = statSync(path);
    if (stats.isDirectory()) readdirSync(path).forEach((entry) => visit(join(path, entry)));
    else newest = Math.max(newest, stats.mtimeMs);
  };
  paths.map((path) => join(root, path)).filter(existsSync).forEach(visit);
  return newest;
}

const isStale = (built, sources) => !existsSync(join(root, built)) || statSync(join(root, built)).mtimeMs < newestChange(sources);

function run(what, args, env = process.env) {
  console.log(`${what}…`);
  const { status, signal } = spawnSync(process.execPath, args, { cwd: root, env, stdio: "inherit" });
  if (status !== 0) {
    console.error(`Plume could not start: ${what.toLowerCase()} failed (${signal ?? `exit ${status}`})`);
    process.exit(1);
  }
}

if (isStale("dist/client/index.html", ["client", "shared", "vite.config.ts"])) {
  const vite = join(dirname(createRequire(import.meta.url).resolve("vite/package.json")), "bin", "vite.js");
  // Always a production build, whatever NODE_ENV says (server/http/client-build.ts says why).
  run("Building the browser app", [vite, "build", "--logLevel", "warn"], { ...process.env, NODE_ENV: "production" });
}
if (isStale("dist/server/main.js", ["server", "shared", "scripts/build-server.mjs"])) run("Building the server", [join(root, "scripts", "build-server.mjs")]);
await import(pathToFileURL(join(root, "dist", "server", "main.js")).href);
