import type { CurrentUser } from "@shared/auth";
import { type PublicConfig, shortAddress } from "@shared/wallet";
import type { WalletChallenge } from "@shared/wallet-schemas";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useRef, useState } from "react";
import i18n, { loadOtherScreenTexts } from "@/lib/i18n";
import { CURRENT_USER_QUERY_KEY, useAuth } from "@/features/accounts";
import { authorStatsQueryKey } from "@/features/books";
import { PUBLIC_CONFIG_QUERY_KEY, usePublicConfig } from "@/lib/public-config";
import { authorPaymentsQueryKey } from "@/lib/query-keys";
import { apiRequest, ApiError } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import {
  type Eip1193Provider,
  personalSign,
  readChainId,
  requestAccounts,
  rpcErrorCode,
  rpcErrorMessage,
  switchToTokenChain,
  USER_REJECTED_REQUEST,
  watchToken,
} from "@/features/wallet/ethereum";
import { type DiscoveredWallet, discoverWallets, subscribeToWallets, WALLETCONNECT_RDNS, walletsSnapshot } from "@/features/wallet/wallet-discovery";
import { isPhoneWithoutWallet } from "@/features/wallet/wallet-links";
import type * as WalletConnectOption from "@/features/wallet/walletconnect-option";
import { isUnauthorizedError } from "@/lib/login-redirect";
import { toast } from "@/lib/toast";
import { useSyncExternalStore } from "@/lib/use-sync-external-store";

/** The wallet states of docs/product.md#wallet, "unavailable" being the install state. */
export type WalletStatus = "unavailable" | "disconnected" | "connecting" | "connected" | "error";

interface Connection {
  status: Exclude<WalletStatus, "unavailable">;
  account: string | null;
  chainId: number | null;
}

export interface Wallet {
  status: WalletStatus;
  /** Every wallet the browser offers (EIP-6963), in the order they announced themselves, then WalletConnect where the operator turned it on. */
  wallets: DiscoveredWallet[];
  /** The wallet in use: the one the author chose last, or the only one there is. */
  activeWallet: DiscoveredWallet | undefined;
  /** The connected account, checksummed once the server has saved it. */
  account: string | null;
  chainId: number | null;
  /** Connected, but on another chain than the one the token lives on. */
  isWrongChain: boolean;
  /** Connects the given wallet, or the active one. */
  connect: (wallet?: DiscoveredWallet) => Promise<void>;
  /** Forgets the account in this page only; the wallet itself stays authorised. */
  disconnect: () => void;
  switchChain: () => Promise<void>;
  addToken: () => Promise<void>;
  /** Makes the connected account the one the server pays, e.g. after it was adopted on load. */
  saveConnectedAccount: () => Promise<void>;
}

export const METAMASK_DOWNLOAD_URL = "https://metamask.io/download/";

/** Where the author chose their wallet last, by its EIP-6963 id: the one used again on the next visit. */
const CHOSEN_WALLET_KEY = "plume.wallet";

function readChosenWallet(): string | null {
  try {
    return window.localStorage.getItem(CHOSEN_WALLET_KEY);
  } catch {
    return null;
  }
}

function rememberChosenWallet(rdns: string): void {
  try {
    window.localStorage.setItem(CHOSEN_WALLET_KEY, rdns);
  } catch {
    // A browser that keeps nothing asks again next time.
  }
}

/** The wallet chosen before if it is still there, else the only one; with several and no choice, none until the author picks. */
function activeWalletOf(wallets: DiscoveredWallet[], chosenRdns: string | null): DiscoveredWallet | undefined {
  return wallets.find((wallet) => wallet.info.rdns === chosenRdns) ?? (wallets.length === 1 ? wallets[0] : undefined);
}

const DISCONNECTED: Connection = { status: "disconnected", account: null, chainId: null };
const FAILED: Connection = { status: "error", account: null, chainId: null };

/**
 * WalletConnect's choice, for a phone wallet app, when the operator set a project id (docs/decisions/0109):
 * its module loads once the settings say so, never with the first screens. A phone without a wallet keeps
 * its "Open in MetaMask" instead: it cannot scan its own screen.
 */
function useWalletConnect(config: PublicConfig | undefined): DiscoveredWallet | undefined {
  const [option, setOption] = useState<typeof WalletConnectOption>();
  const wanted = Boolean(config?.walletConnect) && !isPhoneWithoutWallet();
  useEffect(() => {
    if (wanted) void import("@/features/wallet/walletconnect-option").then(setOption);
  }, [wanted]);
  if (!wanted || !option || !config?.walletConnect) return undefined;
  return option.walletConnectWallet({ settings: config.walletConnect, token: config.token, productName: config.productName });
}

const sameAccount = (a: string | null, b: string | null) => a !== null && b !== null && a.toLowerCase() === b.toLowerCase();

export function toastWalletRequired(): void {
  toast({ variant: "destructive", title: i18n.t("wallet.toasts.required.title"), description: i18n.t("wallet.toasts.required.description") });
}

/** What went wrong in the wallet, in the reader's language where we can tell (a refusal, a server error). */
function walletFailureText(error: unknown, fallbackKey: string): string {
  if (error instanceof ApiError) return errorText(error, fallbackKey);
  if (rpcErrorCode(error) === USER_REJECTED_REQUEST) return i18n.t("wallet.toasts.rejected");
  return rpcErrorMessage(error) ?? i18n.t(fallbackKey);
}

/** A refused address or proof names its own problem (`fields.walletAddress` or `fields.signature`), more precise than "some fields need attention". */
function saveFailureText(error: unknown): string {
  const fields = error instanceof ApiError ? error.body?.fields : undefined;
  const fieldKey = fields?.walletAddress ?? fields?.signature;
  if (fieldKey && i18n.exists(fieldKey)) return i18n.t(fieldKey);
  if (rpcErrorCode(error) === USER_REJECTED_REQUEST) return i18n.t("walletProof.rejected");
  return walletFailureText(error, "wallet.toasts.saveError.fallback");
}

/**
 * Proves the account is the author's before the server saves it (docs/product.md#wallet): a nonce from
 * the server, a Sign-In with Ethereum message for this site and chain, signed in the wallet.
 */
async function proveAccount({ ethereum, account }: { ethereum: Eip1193Provider; account: string }): Promise<CurrentUser> {
  // The proof's statement and refusals are texts of the later screens, which the header's wallet button
  // may be used before; its message builder is only ever needed here, so neither weighs on a first visit.
  const [{ buildWalletProofMessage }] = await Promise.all([import("@shared/wallet-proof"), loadOtherScreenTexts()]);
  const challenge = (await (await apiRequest("POST", "/api/wallet/nonce", { walletAddress: account })).json()) as WalletChallenge;
  const message = buildWalletProofMessage({
    domain: window.location.host,
    address: challenge.walletAddress,
    statement: i18n.t("walletProof.statement"),
    uri: `${window.location.origin}${window.location.pathname}`,
    chainId: challenge.chainId,
    nonce: challenge.nonce,
    issuedAt: new Date().toISOString(),
  });
  toast({ title: i18n.t("walletProof.signPrompt.title"), description: i18n.t("walletProof.signPrompt.description") });
  const signature = await personalSign(ethereum, account, message);
  return (await (await apiRequest("POST", "/api/wallet/connect", { message, signature })).json()) as CurrentUser;
}

/** The wallet's state and actions; one instance lives in WalletProvider, so every screen sees the same wallet. */
export function useWalletController(): Wallet {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const { data: config } = usePublicConfig(userId !== null);
  const [connection, setConnection] = useState<Connection>(DISCONNECTED);
  const discovered = useSyncExternalStore(subscribeToWallets, walletsSnapshot);
  const walletConnect = useWalletConnect(config);
  const wallets = walletConnect ? [...discovered, walletConnect] : discovered;
  const [chosenRdns, setChosenRdns] = useState(readChosenWallet);
  const activeWallet = activeWalletOf(wallets, chosenRdns);
  const ethereum = activeWallet?.provider;
  useEffect(discoverWallets, []);
  // The wallet's events arrive outside React's render: they read the state as it is now.
  const connectionRef = useRef(connection);
  useEffect(() => {
    connectionRef.current = connection;
  }, [connection]);

  const save = useMutation({
    mutationFn: proveAccount,
    onSuccess: (saved) => {
      // Payments that waited for a wallet go out now: their status and the author's figures move.
      for (const queryKey of [CURRENT_USER_QUERY_KEY, authorPaymentsQueryKey(saved.id), authorStatsQueryKey(saved.id)]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
  const saveAccount = save.mutateAsync;

  const tokenSettings = () => queryClient.ensureQueryData<PublicConfig>({ queryKey: PUBLIC_CONFIG_QUERY_KEY }).then((loaded) => loaded.token);

  /** Proves and saves the account for payouts; the state ends connected with the server's checksummed address, or in error. */
  const connectAccount = async (provider: Eip1193Provider, account: string, chainId: number | null) => {
    setConnection({ status: "connecting", account: null, chainId });
    try {
      const saved = await saveAccount({ ethereum: provider, account });
      const address = saved.walletAddress ?? account;
      setConnection({ status: "connected", account: address, chainId });
      toast({ title: i18n.t("wallet.toasts.connected.title"), description: i18n.t("wallet.toasts.connected.description", { address: shortAddress(address) }) });
    } catch (error) {
      setConnection(FAILED);
      if (isUnauthorizedError(error)) return;
      toast({ variant: "destructive", title: i18n.t("wallet.toasts.saveError.title"), description: saveFailureText(error) });
    }
  };

  /** Moves the wallet to the token's chain; a refusal leaves it where it is, shown as the wrong-network state. */
  const moveToTokenChain = async (ethereum: Eip1193Provider, currentChainId: number): Promise<number> => {
    const token = await tokenSettings();
    if (currentChainId === token.chainId) return currentChainId;
    try {
      return await switchToTokenChain(ethereum, token);
    } catch (error) {
      toast({ variant: "destructive", title: i18n.t("wallet.toasts.switchError.title"), description: walletFailureText(error, "wallet.toasts.switchError.fallback") });
      return currentChainId;
    }
  };

  const connect = async (chosen: DiscoveredWallet | undefined = activeWallet) => {
    if (!chosen) {
      toastWalletRequired();
      return;
    }
    const ethereum = chosen.provider;
    if (chosen.info.rdns !== chosenRdns) {
      rememberChosenWallet(chosen.info.rdns);
      setChosenRdns(chosen.info.rdns);
    }
    setConnection({ status: "connecting", account: null, chainId: null });
    let account: string | undefined;
    let chainId: number;
    try {
      [account] = await requestAccounts(ethereum, "eth_requestAccounts");
      if (!account) throw new Error(i18n.t("wallet.toasts.connectError.noAccount"));
      chainId = await moveToTokenChain(ethereum, await readChainId(ethereum));
    } catch (error) {
      setConnection(FAILED);
      toast({ variant: "destructive", title: i18n.t("wallet.toasts.connectError.title"), description: walletFailureText(error, "wallet.toasts.connectError.fallback") });
      return;
    }
    await connectAccount(ethereum, account, chainId);
  };

  const disconnect = () => {
    // A browser wallet stays authorised; a WalletConnect session is ended on the phone too.
    if (activeWallet?.info.rdns === WALLETCONNECT_RDNS) void import("@/features/wallet/walletconnect-option").then((option) => option.endWalletConnectSession());
    setConnection(DISCONNECTED);
    toast({ title: i18n.t("wallet.toasts.disconnected.title"), description: i18n.t("wallet.toasts.disconnected.description") });
  };

  const switchChain = async () => {
    if (!ethereum || connection.chainId === null) return;
    const chainId = await moveToTokenChain(ethereum, connection.chainId);
    setConnection((current) => (current.status === "connected" ? { ...current, chainId } : current));
  };

  const addToken = async () => {
    if (!ethereum) {
      toastWalletRequired();
      return;
    }
    try {
      if (await watchToken(ethereum, await tokenSettings())) {
        toast({ title: i18n.t("wallet.toasts.tokenAdded.title"), description: i18n.t("wallet.toasts.tokenAdded.description") });
      }
    } catch (error) {
      // Declining in the wallet is a choice, not a failure.
      if (rpcErrorCode(error) === USER_REJECTED_REQUEST) return;
      toast({ variant: "destructive", title: i18n.t("wallet.toasts.tokenAddError.title"), description: walletFailureText(error, "wallet.toasts.tokenAddError.fallback") });
    }
  };

  const saveConnectedAccount = async () => {
    if (ethereum && connection.status === "connected" && connection.account) await connectAccount(ethereum, connection.account, connection.chainId);
  };

  const connectAccountRef = useRef(connectAccount);
  useEffect(() => {
    connectAccountRef.current = connectAccount;
  });
  // Only a signed-in author has a wallet here: the wallet's events are followed while one is.
  useEffect(() => {
    if (!ethereum || userId === null) return;
    let isCurrent = true;

    // An account this site was already allowed to see is shown as connected, without a prompt. It is not
    // saved: on a shared browser it may belong to someone else, so only the author's own action saves it.
    Promise.all([requestAccounts(ethereum, "eth_accounts"), readChainId(ethereum)])
      .then(([[account], chainId]) => {
        if (!isCurrent || !account) return;
        setConnection((current) => (current.status === "disconnected" ? { status: "connected", account, chainId } : current));
      })
      .catch(() => {
        // A wallet that cannot answer at load simply stays disconnected until the author connects it.
      });

    const onAccountsChanged = (accounts: string[]) => {
      const current = connectionRef.current;
      if (current.status !== "connected") return;
      const [account] = accounts;
      if (!account) setConnection(DISCONNECTED);
      else if (!sameAccount(account, current.account)) void connectAccountRef.current(ethereum, account, current.chainId);
    };
    const onChainChanged = (chainIdHex: string) => {
      const chainId = Number.parseInt(chainIdHex, 16);
      setConnection((current) => (current.status === "connected" ? { ...current, chainId } : current));
    };
    ethereum.on("accountsChanged", onAccountsChanged);
    ethereum.on("chainChanged", onChainChanged);
    return () => {
      isCurrent = false;
      ethereum.removeListener("accountsChanged", onAccountsChanged);
      ethereum.removeListener("chainChanged", onChainChanged);
      setConnection(DISCONNECTED);
    };
  }, [userId, ethereum]);

  const status: WalletStatus = wallets.length > 0 ? connection.status : "unavailable";
  const isWrongChain = status === "connected" && config !== undefined && connection.chainId !== config.token.chainId;
  // Wallets report lower case; the saved address, when it is the same account, carries the checksum.
  const account = user?.walletAddress && sameAccount(connection.account, user.walletAddress) ? user.walletAddress : connection.account;
  return { status, wallets, activeWallet, account, chainId: connection.chainId, isWrongChain, connect, disconnect, switchChain, addToken, saveConnectedAccount };
}

export const WalletContext = createContext<Wallet | null>(null);

/** The one wallet of the page; needs a WalletProvider above. */
export function useWallet(): Wallet {
  const wallet = useContext(WalletContext);
  if (!wallet) throw new Error("useWallet needs a WalletProvider above it.");
  return wallet;
}
