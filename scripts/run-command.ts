import { type Config, ConfigError, loadConfig } from "../server/config.ts";
import type { Db } from "../server/db/client.ts";
import { openConfiguredDatabase } from "../server/db/open-configured.ts";
import type { FileStore } from "../server/storage/file-store.ts";
import { openFileStore } from "../server/storage/open-store.ts";

/**
 * Runs an `npm run` command's main and exits with its code. A bad setting or a data folder another
 * process holds is the person's to fix, said in one line; anything else is a bug, printed whole.
 */
export function runCommand(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      const expected = error instanceof ConfigError || (error as Error).name === "DataDirLockedError";
      console.error(expected ? `${name} could not start: ${(error as Error).message}` : error);
      process.exit(1);
    },
  );
}

/**
 * A command that works over the books of the configured database and file store (the fill
 * commands): both opened, the database migrated, and both closed whatever the work ends in.
 */
export function runOverBooks(name: string, work: (opened: { config: Config; db: Db; store: FileStore }) => Promise<number>): void {
  runCommand(name, async () => {
    const config = loadConfig();
    const database = await openConfiguredDatabase(config);
    let store: FileStore | undefined;
    try {
      await database.migrate();
      store = await openFileStore(config);
      return await work({ config, db: database.db, store });
    } finally {
      store?.close();
      await database.close();
    }
  });
}
