import { join } from "node:path";
import { build } from "vite";
import { clientBuildFolder, projectRoot } from "../paths.ts";

/**
 * Builds the browser app for production into a folder. Vite lets a set NODE_ENV win over the build
 * mode, so a build started from a test run ("test") would ship React's development build: the
 * build always runs as "production".
 */
export async function buildClient(outDir: string = clientBuildFolder): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ configFile: join(projectRoot, "vite.config.ts"), logLevel: "warn", build: { outDir } });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
