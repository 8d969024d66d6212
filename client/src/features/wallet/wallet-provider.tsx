import { lazy, type ReactNode, Suspense } from "react";
import { useWalletController, WalletContext } from "@/features/wallet/use-wallet";
import { WALLETCONNECT_RDNS } from "@/features/wallet/wallet-discovery";

const WalletConnectPairing = lazy(() => import("@/features/wallet/walletconnect-pairing"));

/** Holds the page's one wallet connection, so the navigation button and the dashboard always agree. */
export function WalletProvider({ children }: { children: ReactNode }) {
  const wallet = useWalletController();
  // WalletConnect's pairing dialog, where the operator turned it on, loads with it (docs/decisions/0109).
  const offersWalletConnect = wallet.wallets.some((each) => each.info.rdns === WALLETCONNECT_RDNS);
  return (
    <WalletContext value={wallet}>
      {children}
      {offersWalletConnect && (
        <Suspense fallback={null}>
          <WalletConnectPairing />
        </Suspense>
      )}
    </WalletContext>
  );
}
