import type { PublicConfig } from "@shared/wallet";

/** What WalletConnect is set up with (docs/decisions/0109): the operator's project and relay, the token's chain, the site's name. */
export interface WalletConnectTarget {
  settings: NonNullable<PublicConfig["walletConnect"]>;
  token: PublicConfig["token"];
  productName: string;
}

/** A pairing waiting to be scanned on the phone: its wc: link, the link as a QR code (an SVG data: URI), and the way out. */
export interface Pairing {
  uri: string;
  qrCode: string;
  cancel: () => void;
}

let pairing: Pairing | null = null;
const pairingListeners = new Set<() => void>();

export function showPairing(next: Pairing | null): void {
  pairing = next;
  for (const listener of pairingListeners) listener();
}

export function subscribeToPairing(listener: () => void): () => void {
  pairingListeners.add(listener);
  return () => pairingListeners.delete(listener);
}

export const pairingSnapshot = (): Pairing | null => pairing;
