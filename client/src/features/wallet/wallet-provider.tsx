import type { ReactNode } from "react";
import { useWalletController, WalletContext } from "@/features/wallet/use-wallet";

/** Holds the page's one wallet connection, so the navigation button and the dashboard always agree. */
export function WalletProvider({ children }: { children: ReactNode }) {
  return <WalletContext value={useWalletController()}>{children}</WalletContext>;
}
