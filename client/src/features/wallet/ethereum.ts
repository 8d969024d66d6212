import { LOCAL_CHAIN_ID, type PublicConfig } from "@shared/wallet";
import i18n from "@/lib/i18n";

/** The part of an EIP-1193 provider (MetaMask's `window.ethereum`) this app uses. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on(event: "accountsChanged", listener: (accounts: string[]) => void): void;
  on(event: "chainChanged", listener: (chainIdHex: string) => void): void;
  removeListener(event: "accountsChanged", listener: (accounts: string[]) => void): void;
  removeListener(event: "chainChanged", listener: (chainIdHex: string) => void): void;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

/** The chain's own name (Polygon), else Plume's name for it in the reader's language: "Plume (local chain)", "Chain 80002". */
export const chainNameOf = ({ chainId, chainName }: PublicConfig["token"]) =>
  chainName ?? (chainId === LOCAL_CHAIN_ID ? i18n.t("wallet.chain.local") : i18n.t("wallet.chain.numbered", { id: chainId }));

/** EIP-1193 and EIP-3085 error codes the app reacts to. */
export const USER_REJECTED_REQUEST = 4001;
export const UNRECOGNIZED_CHAIN = 4902;

const POLYGON_MAINNET = 137;

export function rpcErrorCode(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code } = error as { code?: unknown };
  return typeof code === "number" ? code : undefined;
}

export function rpcErrorMessage(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { message } = error as { message?: unknown };
  return typeof message === "string" && message.trim() !== "" ? message : undefined;
}

export const toHexChainId = (chainId: number) => `0x${chainId.toString(16)}`;

export async function requestAccounts(ethereum: Eip1193Provider, method: "eth_requestAccounts" | "eth_accounts"): Promise<string[]> {
  const accounts = await ethereum.request({ method });
  return Array.isArray(accounts) ? accounts.filter((account): account is string => typeof account === "string") : [];
}

export async function readChainId(ethereum: Eip1193Provider): Promise<number> {
  return Number.parseInt(String(await ethereum.request({ method: "eth_chainId" })), 16);
}

/**
 * Asks the wallet to move to the token's chain, adding the chain first when the wallet does not
 * know it (error 4902). Resolves with the chain the wallet is on afterwards.
 */
export async function switchToTokenChain(ethereum: Eip1193Provider, token: PublicConfig["token"]): Promise<number> {
  const chainId = toHexChainId(token.chainId);
  try {
    await ethereum.request({ method: "wallet_switchEthereumChain", params: [{ chainId }] });
  } catch (error) {
    if (rpcErrorCode(error) !== UNRECOGNIZED_CHAIN) throw error;
    const isPolygon = token.chainId === POLYGON_MAINNET;
    await ethereum.request({
      method: "wallet_addEthereumChain",
      params: [
        {
          chainId,
          chainName: chainNameOf(token),
          rpcUrls: [token.rpcUrl],
          nativeCurrency: isPolygon ? { name: "POL", symbol: "POL", decimals: 18 } : { name: "Ether", symbol: "ETH", decimals: 18 },
          ...(token.explorerUrl ? { blockExplorerUrls: [token.explorerUrl] } : {}),
        },
      ],
    });
  }
  return readChainId(ethereum);
}

/** Asks the wallet to show the PME token; resolves false when the person declines. */
export async function watchToken(ethereum: Eip1193Provider, token: PublicConfig["token"]): Promise<boolean> {
  const added = await ethereum.request({
    method: "wallet_watchAsset",
    params: { type: "ERC20", options: { address: token.address, symbol: token.symbol, decimals: token.decimals } },
  });
  return added === true;
}

/** UTF-8 text as the 0x-hex string personal_sign takes: wallets show it decoded, as text. */
const hexOfText = (text: string) => `0x${Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, "0")).join("")}`;

/** Asks the wallet to sign a message with the account's key (personal_sign: message first, then account, as MetaMask expects). */
export async function personalSign(ethereum: Eip1193Provider, account: string, message: string): Promise<string> {
  const signature = await ethereum.request({ method: "personal_sign", params: [hexOfText(message), account] });
  if (typeof signature !== "string") throw new Error("The wallet answered without a signature.");
  return signature;
}
