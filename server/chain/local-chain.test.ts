import { Contract, JsonRpcProvider, Wallet, formatUnits } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../test/free-port.ts";
import { type LocalChain, startLocalChain } from "./local-chain.ts";
import { pmeArtifact } from "./pme-artifact.ts";

let chain: LocalChain;
beforeAll(async () => {
  chain = await startLocalChain(await freePort());
}, 60_000);
afterAll(() => chain?.stop());

describe("startLocalChain", () => {
  it("runs a chain with PME deployed and the whole supply on the hot wallet", async () => {
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
    } finally {
      provider.destroy();
    }
  });
});
