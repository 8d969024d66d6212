import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import solc from "solc";
import { projectRoot } from "../server/paths.ts";

/**
 * `npm run contracts:build`: compiles each contract of contracts/ with solc-js (no compiler download)
 * and writes the ABI and bytecode the server deploys and calls, committed beside the source.
 */
const require = createRequire(import.meta.url);
const CONTRACTS = ["PlumeToken", "BatchPayer"];

const input = {
  language: "Solidity",
  sources: Object.fromEntries(CONTRACTS.map((name) => [`${name}.sol`, { content: readFileSync(join(projectRoot, "contracts", `${name}.sol`), "utf8") }])),
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "paris",
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
  },
};

function findImport(path: string) {
  try {
    return { contents: readFileSync(require.resolve(path), "utf8") };
  } catch {
    return { error: `Import not found: ${path}` };
  }
}

const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
const errors = (output.errors ?? []).filter((entry: { severity: string }) => entry.severity === "error");
if (errors.length > 0) {
  for (const error of errors) console.error(error.formattedMessage);
  process.exit(1);
}
for (const name of CONTRACTS) {
  const contract = output.contracts[`${name}.sol`][name];
  const artifact = {
    contractName: name,
    compiler: `solc-js ${solc.version()}`,
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
  const target = join(projectRoot, "contracts", `${name}.json`);
  writeFileSync(target, `${JSON.stringify(artifact, null, 2)}\n`);
  console.log(`Wrote ${target} (${artifact.bytecode.length / 2 - 1} bytes of bytecode, ${solc.version()})`);
}
