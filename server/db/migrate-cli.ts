import { loadConfig } from "../config.ts";
import { openConfiguredDatabase } from "./open-configured.ts";

/** `npm run db:migrate`: brings the configured database up to the committed migrations. */
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  await database.migrate();
  console.log(`Migrations applied to the ${database.kind === "pglite" ? "embedded" : "PostgreSQL"} database.`);
} finally {
  await database.close();
}
