import { ConfigError } from "../server/config.ts";

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
