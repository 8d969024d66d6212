import type { BrowserContext } from "playwright-core";

/**
 * An EIP-1193 provider injected as window.ethereum, bridged to the local chain: account and
 * wallet prompts answer as a user who approves, every other call goes to the chain's JSON-RPC.
 * Like MetaMask, it shows no account to a site until the site has asked for one.
 */
export async function injectWallet(context: BrowserContext, { account, rpcUrl }: { account: string; rpcUrl: string }) {
  await context.addInitScript(
    ({ account, rpcUrl }) => {
      const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
      let rpcId = 0;
      const forward = async (method: string, params: unknown[] = []) => {
        const response = await fetch(rpcUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
        });
        const body = await response.json();
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
    { account, rpcUrl },
  );
}
