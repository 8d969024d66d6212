import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { ContractFactory, JsonRpcProvider, Wallet, parseUnits } from "ethers";
import { projectRoot } from "../paths.ts";
import { pmeArtifact } from "./pme-artifact.ts";

/**
 * Hardhat's first default account. Its key is public knowledge: it only ever holds tokens on a
 * throwaway local chain, which is exactly where the embedded default uses it.
 */
export const LOCAL_HOT_WALLET_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
export const LOCAL_CHAIN_ID = 31337;
/** Minted to the hot wallet at deployment: enough for a million milestones. */
export const DEFAULT_SUPPLY = parseUnits("1000000", 18);

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  tokenAddress: string;
  payoutPrivateKey: string;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** Starts a Hardhat 2 node on 127.0.0.1:port and resolves once it answers JSON-RPC. */
async function startHardhatNode(port: number): Promise<ChildProcess> {
  const cli = require.resolve("hardhat/internal/cli/bootstrap.js");
  const node = spawn(
    process.execPath,
    [cli, "--config", join(projectRoot, "hardhat.config.cjs"), "node", "--hostname", "127.0.0.1", "--port", String(port)],
    {
      cwd: projectRoot,
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", HARDHAT_DISABLE_TELEMETRY: "true" },
      stdio: ["ignore", "pipe", "pipe"],
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

/** Deploys PME with the whole supply minted to the deployer (the hot wallet); returns the token's address. */
export async function deployPme(rpcUrl: string, deployerKey: string, supply = DEFAULT_SUPPLY): Promise<string> {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1 });
  try {
    const deployer = new Wallet(deployerKey, provider);
    const factory = new ContractFactory(pmeArtifact.abi, pmeArtifact.bytecode, deployer);
    const token = await factory.deploy(deployer.address, supply);
    await token.waitForDeployment();
    return token.getAddress();
  } finally {
    provider.destroy();
  }
}

/**
 * The embedded default's chain: a fresh Hardhat node with PME deployed and the hot wallet funded
 * with PME (and with the node's default test ether for gas).
 */
export async function startLocalChain(port: number): Promise<LocalChain> {
  const node = await startHardhatNode(port);
  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (node.exitCode !== null) return resolve();
      node.once("exit", () => resolve());
      node.kill("SIGTERM");
    });
  try {
    const tokenAddress = await deployPme(rpcUrl, LOCAL_HOT_WALLET_KEY);
    return { rpcUrl, chainId: LOCAL_CHAIN_ID, tokenAddress, payoutPrivateKey: LOCAL_HOT_WALLET_KEY, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
