import { type Eip1193Provider, toHexChainId } from "@/features/wallet/ethereum";
import { type DiscoveredWallet, WALLETCONNECT_RDNS } from "@/features/wallet/wallet-discovery";
import type { WalletConnectSession } from "@/features/wallet/walletconnect-session";
import type { WalletConnectTarget } from "@/features/wallet/walletconnect-state";

/**
 * WalletConnect as one more wallet beside the browser's own (docs/decisions/0109): offered only when the
 * operator set a project id, and loaded after the settings say so, never with the first screens. Its provider
 * answers like a wallet that has not authorised the site yet; asking for the accounts loads WalletConnect's
 * SDK, shows the pairing as a QR code, and from the phone's approval on every request goes to the phone wallet.
 */

type Listener = (value: never) => void;

class LazyWalletConnectProvider implements Eip1193Provider {
  private session: Promise<WalletConnectSession> | undefined;
  private readonly listeners = { accountsChanged: new Set<Listener>(), chainChanged: new Set<Listener>() };

  constructor(private readonly target: WalletConnectTarget) {}

  async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    if (!this.session) {
      // Before a session, the answers of a wallet that has not authorised the site: no account, on the app's chain.
      if (method === "eth_accounts") return [];
      if (method === "eth_chainId") return toHexChainId(this.target.token.chainId);
      this.session = import("@/features/wallet/walletconnect-session").then(({ openSession }) => openSession(this.target, this.emit));
      this.session.catch(() => {
        this.session = undefined;
      });
    }
    return (await this.session).request({ method, params });
  }

  /** Ends the session in the phone wallet too, as "disconnect" promises (docs/product.md#wallet). */
  async disconnect(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    await (await session)?.end();
  }

  private readonly emit = (event: "accountsChanged" | "chainChanged", value: string[] | string) => {
    // A session the phone ended is gone: the next connection pairs again.
    if (event === "accountsChanged" && value.length === 0) this.session = undefined;
    for (const listener of this.listeners[event]) (listener as (value: string[] | string) => void)(value);
  };

  on(event: "accountsChanged" | "chainChanged", listener: Listener): void {
    this.listeners[event].add(listener);
  }

  removeListener(event: "accountsChanged" | "chainChanged", listener: Listener): void {
    this.listeners[event].delete(listener);
  }
}

let offered: { key: string; wallet: DiscoveredWallet & { provider: LazyWalletConnectProvider } } | undefined;

/** The WalletConnect choice for these settings: the same one on every render, so its session outlives them. */
export function walletConnectWallet(target: WalletConnectTarget): DiscoveredWallet {
  const key = [target.settings.projectId, target.settings.relayUrl, target.token.chainId].join(" ");
  if (offered?.key !== key) {
    const info = { uuid: WALLETCONNECT_RDNS, name: "WalletConnect", icon: "", rdns: WALLETCONNECT_RDNS };
    offered = { key, wallet: { info, provider: new LazyWalletConnectProvider(target) } };
  }
  return offered.wallet;
}

/** Ends the WalletConnect session, if there is one. */
export async function endWalletConnectSession(): Promise<void> {
  await offered?.wallet.provider.disconnect();
}
