import { Wallet, getBytes } from "ethers";
import type { BrowserContext } from "playwright-core";

const RPC_BINDING = "__plumeTestWalletRpc";
const SIGN_BINDING = "__plumeTestWalletSign";

interface RpcAnswer {
  result?: unknown;
  error?: { message: string; code: number };
}

/**
 * An EIP-1193 provider injected as window.ethereum and announced by EIP-6963, bridged to the local chain: account and
 * wallet prompts answer as a user who approves, every other call goes to the chain's JSON-RPC.
 * Like MetaMask, it shows no account to a site until the site has asked for one, and answers
 * personal_sign with a real signature by the account's key, made in the test process.
 */
export async function injectWallet(context: BrowserContext, { privateKey, rpcUrl }: { privateKey: string; rpcUrl: string }) {
  const wallet = new Wallet(privateKey);
  // MetaMask hands out lower-case addresses; the page must cope with that.
  const account = wallet.address.toLowerCase();
  await context.exposeBinding(SIGN_BINDING, async (_source, messageHex: string, signer: string) => {
    if (signer.toLowerCase() !== account) throw new Error(`personal_sign for ${signer}, which this wallet does not hold.`);
    return wallet.signMessage(getBytes(messageHex));
  });
  // As in a wallet extension, chain calls leave from outside the page, so the page's
  // Content-Security-Policy (connect-src 'self') governs the app's own requests only.
  let rpcId = 0;
  await context.exposeBinding(RPC_BINDING, async (_source, method: string, params: unknown[]) => {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
    });
    return (await response.json()) as RpcAnswer;
  });
  await context.addInitScript(
    ({ account, binding, signBinding }) => {
      const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
      const callChain = (window as unknown as Record<string, (method: string, params: unknown[]) => Promise<RpcAnswer>>)[binding]!;
      const sign = (window as unknown as Record<string, (messageHex: string, signer: string) => Promise<string>>)[signBinding]!;
      const forward = async (method: string, params: unknown[] = []) => {
        const body = await callChain(method, params);
        if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
        return body.result;
      };
      let authorised = false;
      const provider = {
        isMetaMask: true,
        async request({ method, params }: { method: string; params?: unknown[] }) {
          switch (method) {
            case "eth_requestAccounts":
              authorised = true;
              return [account];
            case "eth_accounts":
              return authorised ? [account] : [];
            case "wallet_switchEthereumChain":
            case "wallet_addEthereumChain":
              return null;
            case "wallet_watchAsset":
              return true;
            case "personal_sign": {
              const [messageHex, signer] = params as [string, string];
              return sign(messageHex, signer);
            }
            default:
              return forward(method, params);
          }
        },
        on(event: string, listener: (...args: unknown[]) => void) {
          if (!listeners.has(event)) listeners.set(event, new Set());
          listeners.get(event)!.add(listener);
        },
        removeListener(event: string, listener: (...args: unknown[]) => void) {
          listeners.get(event)?.delete(listener);
        },
      };
      // Injected the old way, and announced the EIP-6963 way, as MetaMask does: the app offers it once.
      (window as unknown as { ethereum: unknown }).ethereum = provider;
      const info = { uuid: "5b0c6a57-plume-test-wallet", name: "Test Wallet", icon: "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E", rdns: "test.plume.wallet" };
      const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
      window.addEventListener("eip6963:requestProvider", announce);
      announce();
    },
    { account, binding: RPC_BINDING, signBinding: SIGN_BINDING },
  );
}
