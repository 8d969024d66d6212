import { useSyncExternalStore } from "@/lib/use-sync-external-store";
import WalletConnectDialog from "@/features/wallet/walletconnect-dialog";
import { pairingSnapshot, subscribeToPairing } from "@/features/wallet/walletconnect-state";

/** WalletConnect's pairing dialog, while a pairing waits to be scanned (docs/decisions/0109). */
export default function WalletConnectPairing() {
  const pairing = useSyncExternalStore(subscribeToPairing, pairingSnapshot);
  return pairing ? <WalletConnectDialog pairing={pairing} /> : null;
}
