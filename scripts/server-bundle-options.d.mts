/** Types of server-bundle-options.mjs, for the programs that import it without allowJs (the browser tests', through the cages). */
import type { BuildOptions } from "esbuild";

export declare const serverBundleOptions: (bundleFolder: string) => BuildOptions & { define: Record<string, string> };
export declare const CAGE_ENTRIES: string[];
