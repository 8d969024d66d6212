import { walletsSnapshot } from "@/features/wallet/wallet-discovery";

/**
 * MetaMask Mobile's link that opens a page in the app's own browser, where its wallet is injected
 * (docs/product.md#wallet): the way to connect from a phone whose browser has no wallet.
 */
export function metaMaskAppLink({ host, pathname, search }: Pick<Location, "host" | "pathname" | "search">): string {
  return `https://metamask.app.link/dapp/${host}${pathname}${search}`;
}

/** A phone or tablet (a touch screen and a mobile system) whose browser offers no wallet. */
export function isPhoneWithoutWallet(): boolean {
  if (typeof window === "undefined" || walletsSnapshot().length > 0) return false;
  const coarse = typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches;
  return coarse && /Android|iPhone|iPad|iPod|Mobile/i.test(window.navigator.userAgent);
}
