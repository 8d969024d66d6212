import type { BrowserContext } from "playwright-core";

const RPC_BINDING = "__plumeTestWalletRpc";

interface RpcAnswer {
  result?: unknown;
  error?: { message: string; code: number };
}

/**
 * An EIP-1193 provider injected as window.ethereum, bridged to the local chain: account and
 * wallet prompts answer as a user who approves, every other call goes to the chain's JSON-RPC.
 * Like MetaMask, it shows no account to a site until the site has asked for one.
 */
export async function injectWallet(context: BrowserContext, { account, rpcUrl }: { account: string; rpcUrl: string }) {
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
    ({ account, binding }) => {
      const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
      const callChain = (window as unknown as Record<string, (method: string, params: unknown[]) => Promise<RpcAnswer>>)[binding]!;
      const forward = async (method: string, params: unknown[] = []) => {
        const body = await callChain(method, params);
        if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
        return body.result;
      };
      let authorised = false;
      (window as unknown as { ethereum: unknown }).ethereum = {
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
    },
    { account, binding: RPC_BINDING },
  );
}
