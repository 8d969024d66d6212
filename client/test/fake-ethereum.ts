import type { PublicConfig } from "@shared/wallet";
import { vi } from "vitest";
import type { Eip1193Provider } from "@/features/wallet";

/** The token on the embedded local chain (Hardhat's chain id 31337), which has no block explorer. */
export const localChainConfig: PublicConfig = {
  productName: "Plume",
  contactEmail: null,
  legalContact: null,
  mailSender: "no-reply@plume.example",
  rewards: { promoCutoff: "2026-04-01T00:00:00.000Z", countedPerAddressPerDay: 3 },
  token: {
    address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    symbol: "PME",
    decimals: 18,
    chainId: 31337,
    chainName: null,
    rpcUrl: "http://127.0.0.1:8545",
    explorerUrl: null,
  },
  walletConnect: null,
};

/** An account as MetaMask reports it (lower case) and as the server saves it (EIP-55 checksum). */
export const READER_ACCOUNT = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
export const READER_ACCOUNT_CHECKSUMMED = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const OTHER_ACCOUNT = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
export const OTHER_ACCOUNT_CHECKSUMMED = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

interface RpcRequest {
  method: string;
  params?: unknown;
}

type Listener = (payload: never) => void;

/** A wallet error as MetaMask raises it. */
export const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });

/**
 * A stand-in for MetaMask's EIP-1193 provider: it answers the requests the app makes, records
 * them, and lets a test fail a method or fire the wallet's events.
 */
export class FakeEthereum implements Eip1193Provider {
  /** What eth_requestAccounts grants; eth_accounts answers it only once granted (or pre-authorised). */
  grantedAccounts = [READER_ACCOUNT];
  authorisedAccounts: string[] = [];
  chainIdHex = "0x7a69";
  /** Chains the wallet knows; switching to another one fails with 4902 until it is added. */
  knownChains = new Set(["0x1", "0x89", "0x7a69"]);
  readonly requests: RpcRequest[] = [];
  readonly failures = new Map<string, Error>();
  watchAssetAnswer = true;
  private readonly listeners = new Map<string, Set<Listener>>();

  readonly request = vi.fn(async ({ method, params }: RpcRequest): Promise<unknown> => {
    this.requests.push({ method, params });
    const failure = this.failures.get(method);
    if (failure) throw failure;
    switch (method) {
      case "eth_requestAccounts":
        this.authorisedAccounts = this.grantedAccounts;
        return this.authorisedAccounts;
      case "eth_accounts":
        return this.authorisedAccounts;
      case "eth_chainId":
        return this.chainIdHex;
      case "wallet_switchEthereumChain": {
        const [{ chainId }] = params as [{ chainId: string }];
        if (!this.knownChains.has(chainId)) throw rpcError(4902, "Unrecognized chain ID.");
        this.chainIdHex = chainId;
        return null;
      }
      case "wallet_addEthereumChain": {
        const [{ chainId }] = params as [{ chainId: string }];
        this.knownChains.add(chainId);
        this.chainIdHex = chainId;
        return null;
      }
      case "wallet_watchAsset":
        return this.watchAssetAnswer;
      case "personal_sign":
        // The server is a stand-in too: any signature of the right shape does.
        return `0x${"ab".repeat(65)}`;
      default:
        throw rpcError(4200, `Unsupported method ${method}`);
    }
  });

  on(event: string, listener: Listener): void {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
  }

  removeListener(event: string, listener: Listener): void {
    this.listeners.get(event)?.delete(listener);
  }

  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  emit(event: "accountsChanged", accounts: string[]): void;
  emit(event: "chainChanged", chainIdHex: string): void;
  emit(event: string, payload: unknown): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (value: unknown) => void)(payload);
  }

  methods(): string[] {
    return this.requests.map((request) => request.method);
  }
}

/** Puts the fake wallet where MetaMask puts itself. */
export function installEthereum(ethereum = new FakeEthereum()): FakeEthereum {
  vi.stubGlobal("ethereum", ethereum);
  return ethereum;
}

const announcers: Array<() => void> = [];

/**
 * Makes a wallet announce itself as EIP-6963 wallets do: at once, and again whenever the page asks.
 * `clearAnnouncedWallets` (after each test) stops them.
 */
export function announceWallet(name: string, rdns: string, ethereum = new FakeEthereum()): FakeEthereum {
  const detail = { info: { uuid: `${rdns}-uuid`, name, icon: "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E", rdns }, provider: ethereum };
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }));
  window.addEventListener("eip6963:requestProvider", announce);
  announcers.push(() => window.removeEventListener("eip6963:requestProvider", announce));
  announce();
  return ethereum;
}

export function clearAnnouncedWallets(): void {
  for (const stop of announcers.splice(0)) stop();
}
