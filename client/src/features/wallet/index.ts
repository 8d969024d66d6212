// The wallet feature's public file (docs/decisions/0057-client-feature-folders.md): the browser
// wallet every screen's header offers, and the calls the rewards' parts make on it.
export { AddTokenButton, WalletButton } from "./wallet-button";
export { WalletProvider } from "./wallet-provider";
export { METAMASK_DOWNLOAD_URL, useWallet } from "./use-wallet";
export { chainNameOf, type Eip1193Provider } from "./ethereum";
