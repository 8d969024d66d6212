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
  getEthereum,
  personalSign,
  readChainId,
  requestAccounts,
  rpcErrorCode,
  rpcErrorMessage,
  switchToTokenChain,
  USER_REJECTED_REQUEST,
  watchToken,
} from "@/features/wallet/ethereum";
import { isUnauthorizedError } from "@/lib/login-redirect";
import { toast } from "@/lib/toast";

/** The wallet states of docs/product.md#wallet, "unavailable" being the install state. */
export type WalletStatus = "unavailable" | "disconnected" | "connecting" | "connected" | "error";

interface Connection {
  status: Exclude<WalletStatus, "unavailable">;
  account: string | null;
  chainId: number | null;
}

export interface Wallet {
  status: WalletStatus;
  /** The connected account, checksummed once the server has saved it. */
  account: string | null;
  chainId: number | null;
  /** Connected, but on another chain than the one the token lives on. */
  isWrongChain: boolean;
  connect: () => Promise<void>;
  /** Forgets the account in this page only; the wallet itself stays authorised. */
  disconnect: () => void;
  switchChain: () => Promise<void>;
  addToken: () => Promise<void>;
  /** Makes the connected account the one the server pays, e.g. after it was adopted on load. */
  saveConnectedAccount: () => Promise<void>;
}

export const METAMASK_DOWNLOAD_URL = "https://metamask.io/download/";

const DISCONNECTED: Connection = { status: "disconnected", account: null, chainId: null };
const FAILED: Connection = { status: "error", account: null, chainId: null };

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
async function proveAccount(account: string): Promise<CurrentUser> {
  const ethereum = getEthereum();
  if (!ethereum) throw new Error(i18n.t("wallet.toasts.required.description"));
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
  const connectAccount = async (account: string, chainId: number | null) => {
    setConnection({ status: "connecting", account: null, chainId });
    try {
      const saved = await saveAccount(account);
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

  const connect = async () => {
    const ethereum = getEthereum();
    if (!ethereum) {
      toastWalletRequired();
      return;
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
    await connectAccount(account, chainId);
  };

  const disconnect = () => {
    setConnection(DISCONNECTED);
    toast({ title: i18n.t("wallet.toasts.disconnected.title"), description: i18n.t("wallet.toasts.disconnected.description") });
  };

  const switchChain = async () => {
    const ethereum = getEthereum();
    if (!ethereum || connection.chainId === null) return;
    const chainId = await moveToTokenChain(ethereum, connection.chainId);
    setConnection((current) => (current.status === "connected" ? { ...current, chainId } : current));
  };

  const addToken = async () => {
    const ethereum = getEthereum();
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
    if (connection.status === "connected" && connection.account) await connectAccount(connection.account, connection.chainId);
  };

  const connectAccountRef = useRef(connectAccount);
  useEffect(() => {
    connectAccountRef.current = connectAccount;
  });
  // Only a signed-in author has a wallet here: the wallet's events are followed while one is.
  useEffect(() => {
    const ethereum = getEthereum();
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
      else if (!sameAccount(account, current.account)) void connectAccountRef.current(account, current.chainId);
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
  }, [userId]);

  const hasExtension = getEthereum() !== undefined;
  const status: WalletStatus = hasExtension ? connection.status : "unavailable";
  const isWrongChain = status === "connected" && config !== undefined && connection.chainId !== config.token.chainId;
  // Wallets report lower case; the saved address, when it is the same account, carries the checksum.
  const account = user?.walletAddress && sameAccount(connection.account, user.walletAddress) ? user.walletAddress : connection.account;
  return { status, account, chainId: connection.chainId, isWrongChain, connect, disconnect, switchChain, addToken, saveConnectedAccount };
}

export const WalletContext = createContext<Wallet | null>(null);

/** The one wallet of the page; needs a WalletProvider above. */
export function useWallet(): Wallet {
  const wallet = useContext(WalletContext);
  if (!wallet) throw new Error("useWallet needs a WalletProvider above it.");
  return wallet;
}
