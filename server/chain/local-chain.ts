import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ContractFactory, JsonRpcProvider, Wallet, parseUnits } from "ethers";
import { LOCAL_CHAIN_ID } from "../../shared/wallet.ts";
import { projectRoot } from "../paths.ts";
import { commandLineOf, formatMark, isStillRunning, markOf, parseMark } from "../system/processes.ts";
import { deployBatchPayer } from "./batch-payer.ts";
import { pmeArtifact } from "./pme-artifact.ts";

/**
 * Hardhat's first default account. Its key is public knowledge: it only ever holds tokens on a
 * throwaway local chain, which is exactly where the embedded default uses it.
 */
export const LOCAL_HOT_WALLET_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
export { LOCAL_CHAIN_ID };
/** Minted to the hot wallet at deployment: enough for a million milestones. */
export const DEFAULT_SUPPLY = parseUnits("1000000", 18);

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  tokenAddress: string;
  /** The block PME was deployed in: where the reconciliation starts reading. */
  deployBlock: number;
  /** The batch payer for PME (docs/decisions/0039); the hot wallet approves it when it starts paying. */
  batchPayerAddress: string;
  payoutPrivateKey: string;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
const EXIT_WITH_PARENT = join(projectRoot, "server", "chain", "exit-with-parent.cjs");
const isLocalChainCommand = (args: string[]) => args.includes(EXIT_WITH_PARENT) && args.some((arg) => arg.endsWith("hardhat.config.cjs"));

/** The local chains (started by a Plume server) listening on this port, by pid. */
export function localChainsOnPort(port: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      const args = commandLineOf(pid);
      return isLocalChainCommand(args) && args[args.indexOf("--port") + 1] === String(port);
    });
}

/**
 * Stops the chain an earlier server of this data folder left running, if one still is: a server
 * killed a moment ago whose chain has not ended yet, or one from before chains ended with their
 * server. Only a process that is that very chain (same pid and start time, a local chain's command
 * line) is stopped; the record of anything else is dropped.
 */
async function stopLeftoverChain(recordPath: string): Promise<void> {
  const mark = existsSync(recordPath) ? parseMark(readFileSync(recordPath, "utf8")) : undefined;
  if (mark && isStillRunning(mark) && isLocalChainCommand(commandLineOf(mark.pid))) {
    process.kill(mark.pid, "SIGKILL");
    for (let waited = 0; isStillRunning(mark) && waited < 5_000; waited += 50) await sleep(50);
  }
  rmSync(recordPath, { force: true });
}

/** Starts a Hardhat 2 node on 127.0.0.1:port and resolves once it answers JSON-RPC. */
async function startHardhatNode(port: number): Promise<ChildProcess> {
  const cli = require.resolve("hardhat/internal/cli/bootstrap.js");
  const node = spawn(
    process.execPath,
    // A small young generation: the idle node held 100 MB resident with V8's default, 85 MB with this (docs/decisions/0045).
    ["--max-semi-space-size=1", "--require", EXIT_WITH_PARENT, cli, "--config", join(projectRoot, "hardhat.config.cjs"), "node", "--hostname", "127.0.0.1", "--port", String(port)],
    {
      cwd: projectRoot,
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", HARDHAT_DISABLE_TELEMETRY: "true" },
      // stdin stays open for the chain's whole life: its end is the server's end (exit-with-parent.cjs).
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  node.stdout!.on("data", collect);
  node.stderr!.on("data", collect);
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`The local chain stopped at start (exit ${code}): ${output.trim().split("\n").slice(-3).join(" ")}`));
    node.once("exit", onExit);
    node.stdout!.on("data", () => {
      if (output.includes("Started HTTP and WebSocket JSON-RPC server")) {
        node.off("exit", onExit);
        resolve();
      }
    });
  });
  // Past start-up its log would only fill memory.
  node.stdout!.removeListener("data", collect);
  node.stdout!.resume();
  return node;
}

/** Deploys PME with the whole supply minted to the deployer (the hot wallet); returns the token's address and block. */
export async function deployPme(rpcUrl: string, deployerKey: string, supply = DEFAULT_SUPPLY): Promise<{ address: string; block: number }> {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1 });
  try {
    const deployer = new Wallet(deployerKey, provider);
    const factory = new ContractFactory(pmeArtifact.abi, pmeArtifact.bytecode, deployer);
    const token = await factory.deploy(deployer.address, supply);
    const receipt = await token.deploymentTransaction()!.wait();
    return { address: await token.getAddress(), block: receipt!.blockNumber };
  } finally {
    provider.destroy();
  }
}

/**
 * The embedded default's chain: a fresh Hardhat node with PME and its batch payer deployed and the
 * hot wallet funded with PME (and with the node's default test ether for gas).
 */
export async function startLocalChain(port: number, { recordIn }: { recordIn?: string } = {}): Promise<LocalChain> {
  if (recordIn) await stopLeftoverChain(recordIn);
  const node = await startHardhatNode(port);
  if (recordIn) writeFileSync(recordIn, formatMark(markOf(node.pid!)));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (recordIn) rmSync(recordIn, { force: true });
      if (node.exitCode !== null) return resolve();
      node.once("exit", () => resolve());
      node.kill("SIGTERM");
    });
  try {
    const { address: tokenAddress, block: deployBlock } = await deployPme(rpcUrl, LOCAL_HOT_WALLET_KEY);
    const batchPayerAddress = await deployBatchPayer(rpcUrl, LOCAL_HOT_WALLET_KEY, tokenAddress);
    return { rpcUrl, chainId: LOCAL_CHAIN_ID, tokenAddress, deployBlock, batchPayerAddress, payoutPrivateKey: LOCAL_HOT_WALLET_KEY, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
