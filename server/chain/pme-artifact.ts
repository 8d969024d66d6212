import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { InterfaceAbi } from "ethers";
import { projectRoot } from "../paths.ts";

/** The committed PME build (`npm run contracts:build`): deployed on local chains, called everywhere. */
export const pmeArtifact = JSON.parse(readFileSync(join(projectRoot, "contracts", "PlumeToken.json"), "utf8")) as {
  abi: InterfaceAbi;
  bytecode: string;
};
