// A child process that creates an empty PGlite database in the folder it is given, then exits. The
// server runs it before it opens a data folder for the first time: initdb runs in a second WebAssembly
// instance whose memory (hundreds of MB of buffers) a resting server never collects, since nothing
// triggers a collection once it stands idle (docs/decisions/0045-footprint-of-the-embedded-default.md).
// Plain JavaScript, started by path from the sources (tsx) and from the bundle alike.
import { PGlite } from "@electric-sql/pglite";

const folder = process.argv[2];
if (!folder) throw new Error("Usage: pglite-initdb-process.mjs <data folder>");
const database = await PGlite.create(folder);
await database.close();
