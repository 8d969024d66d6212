import type { Eip1193Provider } from "@/features/wallet/ethereum";

/**
 * Every browser wallet on the page, found by EIP-6963 (docs/product.md#wallet, docs/decisions/0106):
 * each wallet announces itself with a name, an icon and its reverse-DNS id, so MetaMask, Rabby, Brave,
 * Coinbase and the rest are offered side by side instead of whichever one won `window.ethereum`.
 */
export interface WalletInfo {
  uuid: string;
  name: string;
  /** A data: URI (the page's CSP allows no other image source); empty for a wallet found the old way. */
  icon: string;
  rdns: string;
}

export interface DiscoveredWallet {
  info: WalletInfo;
  provider: Eip1193Provider;
}

/** The id of a wallet known only as `window.ethereum`, from a browser without EIP-6963. */
export const INJECTED_RDNS = "injected";

/** The id of WalletConnect, offered beside the browser's wallets when the operator turned it on (docs/decisions/0109). */
export const WALLETCONNECT_RDNS = "com.walletconnect";

const ANNOUNCE = "eip6963:announceProvider";
const REQUEST = "eip6963:requestProvider";

let announced: DiscoveredWallet[] = [];
let snapshot: DiscoveredWallet[] = [];
const listeners = new Set<() => void>();
let started = false;

const isText = (value: unknown, max: number): value is string => typeof value === "string" && value.length > 0 && value.length <= max;

/** An announcement is any page script's event: only a well-formed one, with a data: icon, is believed. */
function walletOf(detail: unknown): DiscoveredWallet | undefined {
  if (typeof detail !== "object" || detail === null) return undefined;
  const { info, provider } = detail as { info?: Partial<WalletInfo>; provider?: Partial<Eip1193Provider> };
  if (!info || !provider || typeof provider.request !== "function" || typeof provider.on !== "function") return undefined;
  if (!isText(info.uuid, 100) || !isText(info.name, 100) || !isText(info.rdns, 200)) return undefined;
  const icon = typeof info.icon === "string" && info.icon.startsWith("data:image/") ? info.icon : "";
  return { info: { uuid: info.uuid, name: info.name, icon, rdns: info.rdns }, provider: provider as Eip1193Provider };
}

function legacyWallet(): DiscoveredWallet | undefined {
  const ethereum = typeof window === "undefined" ? undefined : window.ethereum;
  if (!ethereum) return undefined;
  const name = (ethereum as { isMetaMask?: boolean }).isMetaMask ? "MetaMask" : "";
  return { info: { uuid: INJECTED_RDNS, name, icon: "", rdns: INJECTED_RDNS }, provider: ethereum };
}

/** The announced wallets; without any, the one injected as `window.ethereum`, which may arrive after the page started. */
function currentWallets(): DiscoveredWallet[] {
  if (announced.length > 0) return announced;
  const legacy = legacyWallet();
  return legacy ? [legacy] : [];
}

function refresh() {
  const next = currentWallets();
  const same = next.length === snapshot.length && next.every((wallet, index) => wallet.provider === snapshot[index]?.provider);
  if (same) return;
  snapshot = next;
  for (const listener of listeners) listener();
}

function onAnnounce(event: Event) {
  const wallet = walletOf((event as CustomEvent).detail);
  if (!wallet) return;
  // A wallet announces again when asked again: the newest announcement of a uuid replaces the older.
  announced = [...announced.filter((known) => known.info.uuid !== wallet.info.uuid), wallet];
  refresh();
}

/** Starts listening once and asks the wallets to announce themselves (they answer at once, or when they load). */
export function discoverWallets(): void {
  if (typeof window === "undefined") return;
  if (!started) {
    started = true;
    window.addEventListener(ANNOUNCE, onAnnounce);
  }
  window.dispatchEvent(new Event(REQUEST));
  refresh();
}

export function subscribeToWallets(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const walletsSnapshot = (): DiscoveredWallet[] => snapshot;

/** Forgets every wallet: each test starts with a page that has none. */
export function resetWalletDiscovery(): void {
  if (started) window.removeEventListener(ANNOUNCE, onAnnounce);
  started = false;
  announced = [];
  snapshot = [];
}
