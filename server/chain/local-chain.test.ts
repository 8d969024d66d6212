import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Contract, JsonRpcProvider, Wallet, formatUnits } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../paths.ts";
import { formatMark, isProcessRunning, markOf } from "../system/processes.ts";
import { freePort } from "../../test/helpers/free-port.ts";
import { type LocalChain, localChainsOnPort, startLocalChain } from "./local-chain.ts";
import { batchPayerArtifact } from "./batch-payer.ts";
import { pmeArtifact } from "./pme-artifact.ts";

let chain: LocalChain;
beforeAll(async () => {
  chain = await startLocalChain(await freePort());
}, 60_000);
afterAll(() => chain?.stop());

describe("startLocalChain", () => {
  it("runs a chain with PME and its batch payer deployed and the whole supply on the hot wallet", async () => {
    const provider = new JsonRpcProvider(chain.rpcUrl, undefined, { cacheTimeout: -1 });
    try {
      expect(Number((await provider.getNetwork()).chainId)).toBe(chain.chainId);
      const token = new Contract(chain.tokenAddress, pmeArtifact.abi, provider);
      expect(await token.getFunction("name")()).toBe("Plume");
      expect(await token.getFunction("symbol")()).toBe("PME");
      expect(await token.getFunction("decimals")()).toBe(18n);
      const hotWallet = new Wallet(chain.payoutPrivateKey).address;
      expect(formatUnits(await token.getFunction("balanceOf")(hotWallet), 18)).toBe("1000000.0");
      expect(await provider.getBalance(hotWallet)).toBeGreaterThan(0n);
      expect(await new Contract(chain.batchPayerAddress, batchPayerArtifact.abi, provider).getFunction("token")()).toBe(chain.tokenAddress);
    } finally {
      provider.destroy();
    }
  });
});

describe("a local chain's life", () => {
  /** A stand-in for the server: a process of its own that starts a chain recorded in `record`, says so, and waits. */
  async function startChainOwner(port: number, record: string) {
    const owner = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { startLocalChain } = await import(${JSON.stringify(join(projectRoot, "server", "chain", "local-chain.ts"))});
        await startLocalChain(${port}, { recordIn: ${JSON.stringify(record)} });
        console.log("chain started");
        setInterval(() => {}, 60_000);`,
      ],
      { cwd: projectRoot, stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve, reject) => {
      owner.once("exit", (code) => reject(new Error(`the chain's owner ended at start (exit ${code})`)));
      owner.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("chain started") && resolve());
    });
    return owner;
  }

  it("ends when the process that started it is killed with SIGKILL, and the next start on its port succeeds without touching an unrelated process", async () => {
    const port = await freePort();
    const record = join(mkdtempSync(join(tmpdir(), "plume-chain-")), "local-chain.pid");
    const owner = await startChainOwner(port, record);
    const [orphan] = localChainsOnPort(port);
    expect(orphan).toBeDefined();
    owner.kill("SIGKILL");
    for (let waited = 0; localChainsOnPort(port).length > 0 && waited < 10_000; waited += 100) await sleep(100);
    expect(localChainsOnPort(port)).toEqual([]);

    // A record naming a process that is not a chain (its pid reused, say) must never get it killed.
    const unrelated = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      await new Promise((resolve) => unrelated.once("spawn", resolve));
      writeFileSync(record, formatMark(markOf(unrelated.pid!)));
      const next = await startLocalChain(port, { recordIn: record });
      await next.stop();
      expect(isProcessRunning(unrelated.pid!)).toBe(true);
    } finally {
      unrelated.kill("SIGKILL");
    }
  }, 30_000);
});
