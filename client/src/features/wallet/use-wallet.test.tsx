import type { CurrentUser } from "@shared/auth";
import type { PublicConfig } from "@shared/wallet";
import { parseWalletProofMessage } from "@shared/wallet-proof";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { Toaster } from "@/ui/toaster";
import { WalletProvider } from "@/features/wallet/wallet-provider";
import { useWallet } from "@/features/wallet/use-wallet";
import { createQueryClient } from "@/lib/query-client";
import { resetWalletDiscovery } from "@/features/wallet/wallet-discovery";
import {
  announceWallet,
  clearAnnouncedWallets,
  FakeEthereum,
  installEthereum,
  localChainConfig,
  OTHER_ACCOUNT,
  OTHER_ACCOUNT_CHECKSUMMED,
  READER_ACCOUNT,
  READER_ACCOUNT_CHECKSUMMED,
  rpcError,
} from "@client-test/fake-ethereum";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";

interface ServerOptions {
  config?: PublicConfig;
  /** The answer to POST /api/wallet/connect; by default the account saved with its checksum. */
  connectAnswer?: (walletAddress: string) => Response;
}

const CHECKSUMS: Record<string, string> = { [READER_ACCOUNT]: READER_ACCOUNT_CHECKSUMMED, [OTHER_ACCOUNT]: OTHER_ACCOUNT_CHECKSUMMED };

function mockServer({ config = localChainConfig, connectAnswer }: ServerOptions = {}) {
  const savedAddresses: string[] = [];
  let asked: string | undefined;
  const fetchMock = mockFetch((url, init) => {
    if (url === "/api/auth/user") return jsonResponse(200, ada);
    if (url === "/api/config") return jsonResponse(200, config);
    if (url === "/api/wallet/nonce" && init?.method === "POST") {
      const { walletAddress } = JSON.parse(String(init.body)) as { walletAddress: string };
      asked = walletAddress;
      return jsonResponse(200, { nonce: "0123456789abcdef0123456789abcdef", walletAddress: CHECKSUMS[walletAddress] ?? walletAddress, chainId: config.token.chainId, expiresAt: "2026-11-26T05:00:00.000Z" });
    }
    if (url === "/api/wallet/connect" && init?.method === "POST") {
      const { message } = JSON.parse(String(init.body)) as { message: string };
      // The account saved is the one the signed message names: the one the nonce was asked for.
      const walletAddress = asked!;
      expect(parseWalletProofMessage(message)).toMatchObject({ address: CHECKSUMS[walletAddress] ?? walletAddress, nonce: "0123456789abcdef0123456789abcdef", chainId: config.token.chainId });
      savedAddresses.push(walletAddress);
      if (connectAnswer) return connectAnswer(walletAddress);
      const saved: CurrentUser = { ...ada, walletAddress: CHECKSUMS[walletAddress] ?? walletAddress };
      return jsonResponse(200, saved);
    }
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
  return { fetchMock, savedAddresses };
}

/** The wallet as any screen sees it, with the app's toasts on screen. */
async function renderWallet() {
  const queryClient = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <WalletProvider>
        {children}
        <Toaster />
      </WalletProvider>
    </QueryClientProvider>
  );
  const view = renderHook(() => useWallet(), { wrapper });
  // The wallet follows the signed-in author only once the session is known.
  await waitFor(() => expect(queryClient.getQueryData(["/api/auth/user"])).toBeDefined());
  const ethereum = window.ethereum;
  if (ethereum instanceof FakeEthereum) await waitFor(() => expect(ethereum.listenerCount("accountsChanged")).toBe(1));
  return { ...view, queryClient };
}

const connect = (wallet: { current: ReturnType<typeof useWallet> }) => act(() => wallet.current.connect());

afterEach(() => {
  clearAnnouncedWallets();
  resetWalletDiscovery();
});

describe("useWallet", () => {
  it("offers to install MetaMask when there is no wallet extension", async () => {
    mockServer();
    const { result } = await renderWallet();

    expect(result.current.status).toBe("unavailable");
    await connect(result);
    expect(await screen.findByRole("alert")).toHaveTextContent("Wallet required");
    expect(result.current.status).toBe("unavailable");
  });

  it("connects: asks for the accounts and the chain, saves the address, then shows it shortened", async () => {
    const ethereum = installEthereum();
    const { savedAddresses } = mockServer();
    const { result } = await renderWallet();
    expect(result.current.status).toBe("disconnected");

    await connect(result);

    expect(ethereum.methods()).toEqual(["eth_accounts", "eth_chainId", "eth_requestAccounts", "eth_chainId", "personal_sign"]);
    expect(savedAddresses).toEqual([READER_ACCOUNT]);
    expect(result.current).toMatchObject({ status: "connected", account: READER_ACCOUNT_CHECKSUMMED, chainId: 31337, isWrongChain: false });
    expect(screen.getByRole("status")).toHaveTextContent("Wallet connected");
    expect(screen.getByRole("status")).toHaveTextContent("0x7099…79C8");
  });

  it("reads the author's payments and figures again once the wallet is saved: payments that waited for it go out", async () => {
    installEthereum();
    mockServer();
    const { result, queryClient } = await renderWallet();
    const payments = ["/api/authors", ada.id, "payments"];
    const stats = ["/api/authors", ada.id, "stats"];
    const books = ["/api/authors", ada.id, "books"];
    for (const queryKey of [payments, stats, books]) queryClient.setQueryData(queryKey, []);

    await connect(result);

    expect(result.current.status).toBe("connected");
    expect(queryClient.getQueryState(payments)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(stats)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(books)?.isInvalidated).toBe(false);
  });

  it("shows connecting while the wallet asks the author", async () => {
    const ethereum = installEthereum();
    mockServer();
    const { result } = await renderWallet();
    let grant: (accounts: string[]) => void = () => {};
    ethereum.request.mockImplementationOnce(() => new Promise((resolve) => (grant = resolve)));

    let connecting: Promise<void> = Promise.resolve();
    act(() => {
      connecting = result.current.connect();
    });
    expect(result.current.status).toBe("connecting");
    await act(async () => {
      grant([READER_ACCOUNT]);
      await connecting;
    });
    expect(result.current.status).toBe("connected");
  });

  it("moves a wallet on another chain to the token's chain, adding the chain when the wallet does not know it (4902)", async () => {
    const ethereum = installEthereum();
    ethereum.chainIdHex = "0x1";
    ethereum.knownChains.delete("0x7a69");
    mockServer();
    const { result } = await renderWallet();

    await connect(result);

    const switches = ethereum.requests.filter(({ method }) => method === "wallet_switchEthereumChain");
    expect(switches).toEqual([{ method: "wallet_switchEthereumChain", params: [{ chainId: "0x7a69" }] }]);
    const addition = ethereum.requests.find(({ method }) => method === "wallet_addEthereumChain");
    expect(addition?.params).toEqual([
      {
        chainId: "0x7a69",
        // The wallet keeps the name it is given: Plume's name for the local chain, in the reader's language.
        chainName: "Plume (local chain)",
        rpcUrls: ["http://127.0.0.1:8545"],
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      },
    ]);
    expect(result.current).toMatchObject({ status: "connected", chainId: 31337, isWrongChain: false });
  });

  it("adds Polygon with POL and its explorer", async () => {
    const ethereum = installEthereum();
    ethereum.chainIdHex = "0x1";
    ethereum.knownChains.delete("0x89");
    const polygon: PublicConfig = {
      ...localChainConfig,
      token: { ...localChainConfig.token, chainId: 137, chainName: "Polygon Mainnet", rpcUrl: "https://polygon-rpc.com", explorerUrl: "https://polygonscan.com" },
    };
    mockServer({ config: polygon });
    const { result } = await renderWallet();

    await connect(result);

    expect(ethereum.requests.find(({ method }) => method === "wallet_addEthereumChain")?.params).toEqual([
      {
        chainId: "0x89",
        chainName: "Polygon Mainnet",
        rpcUrls: ["https://polygon-rpc.com"],
        nativeCurrency: { name: "POL", symbol: "POL", decimals: 18 },
        blockExplorerUrls: ["https://polygonscan.com"],
      },
    ]);
    expect(result.current.chainId).toBe(137);
  });

  it("still saves the address when the author declines the switch, and shows the wrong network", async () => {
    const ethereum = installEthereum();
    ethereum.chainIdHex = "0x1";
    ethereum.failures.set("wallet_switchEthereumChain", rpcError(4001, "User rejected the request."));
    const { savedAddresses } = mockServer();
    const { result } = await renderWallet();

    await connect(result);

    expect(savedAddresses).toEqual([READER_ACCOUNT]);
    expect(result.current).toMatchObject({ status: "connected", chainId: 1, isWrongChain: true });
  });

  it("follows the wallet's chain changes", async () => {
    const ethereum = installEthereum();
    mockServer();
    const { result } = await renderWallet();
    await connect(result);

    act(() => ethereum.emit("chainChanged", "0x1"));
    expect(result.current.isWrongChain).toBe(true);
    act(() => ethereum.emit("chainChanged", "0x7a69"));
    expect(result.current.isWrongChain).toBe(false);
  });

  it("is disconnected when the wallet reports no account any more", async () => {
    const ethereum = installEthereum();
    mockServer();
    const { result } = await renderWallet();
    await connect(result);

    act(() => ethereum.emit("accountsChanged", []));

    expect(result.current).toMatchObject({ status: "disconnected", account: null });
  });

  it("saves the new account when the author switches accounts in the wallet", async () => {
    const ethereum = installEthereum();
    const { savedAddresses } = mockServer();
    const { result } = await renderWallet();
    await connect(result);

    act(() => ethereum.emit("accountsChanged", [OTHER_ACCOUNT]));

    await waitFor(() => expect(result.current.account).toBe(OTHER_ACCOUNT_CHECKSUMMED));
    expect(savedAddresses).toEqual([READER_ACCOUNT, OTHER_ACCOUNT]);
    expect(result.current.status).toBe("connected");
  });

  it("ends in the error state with a toast when the server does not save the address", async () => {
    installEthereum();
    mockServer({
      connectAnswer: () =>
        jsonResponse(400, { message: "Invalid input.", code: "validation_failed", fields: { walletAddress: "validation.walletChecksum" } }),
    });
    const { result } = await renderWallet();

    await connect(result);

    expect(result.current.status).toBe("error");
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("Error saving your wallet");
    expect(alert).toHaveTextContent("This address has a wrong checksum");
  });

  it("tells the author why the wallet asks for a signature while it asks, and signs the site's message for the token's chain", async () => {
    const ethereum = installEthereum();
    const { savedAddresses } = mockServer();
    const { result } = await renderWallet();
    let sign: (signature: string) => void = () => {};
    const original = ethereum.request.getMockImplementation()!;
    ethereum.request.mockImplementation((call) => {
      if (call.method !== "personal_sign") return original(call);
      ethereum.requests.push(call);
      return new Promise((resolve) => (sign = resolve));
    });

    let connecting: Promise<void> = Promise.resolve();
    act(() => {
      connecting = result.current.connect();
    });
    await waitFor(() => expect(ethereum.methods()).toContain("personal_sign"));
    expect(screen.getByRole("status")).toHaveTextContent("Sign the message to prove this wallet is yours. Signing is free and sends no transaction.");
    const [messageHex, signer] = ethereum.requests.find(({ method }) => method === "personal_sign")!.params as [string, string];
    expect(signer).toBe(READER_ACCOUNT);
    const message = new TextDecoder().decode(Uint8Array.from(messageHex.slice(2).match(/../g)!, (byte) => Number.parseInt(byte, 16)));
    expect(parseWalletProofMessage(message)).toMatchObject({
      domain: window.location.host,
      address: READER_ACCOUNT_CHECKSUMMED,
      uri: expect.stringMatching(new RegExp(`^${window.location.origin}`)),
      chainId: 31337,
      statement: "Connect this wallet to my Plume account to receive my author payments.",
    });
    expect(savedAddresses).toEqual([]);

    await act(async () => {
      sign(`0x${"cd".repeat(65)}`);
      await connecting;
    });
    expect(savedAddresses).toEqual([READER_ACCOUNT]);
    expect(result.current.status).toBe("connected");
  });

  it("names why the server refused the signed proof, e.g. a wallet another account holds", async () => {
    installEthereum();
    mockServer({
      connectAnswer: () =>
        jsonResponse(409, { message: "Taken.", code: "wallet_taken", fields: { walletAddress: "walletProof.errors.taken" } }),
    });
    const { result } = await renderWallet();

    await connect(result);

    expect(result.current.status).toBe("error");
    expect(screen.getByRole("alert")).toHaveTextContent("This wallet is already connected to another Plume account.");
  });

  it("saves nothing and says so when the author declines to sign", async () => {
    const ethereum = installEthereum();
    ethereum.failures.set("personal_sign", rpcError(4001, "User denied message signature."));
    const { savedAddresses } = mockServer();
    const { result } = await renderWallet();

    await connect(result);

    expect(result.current.status).toBe("error");
    expect(savedAddresses).toEqual([]);
    expect(screen.getByRole("alert")).toHaveTextContent("You declined to sign, so the wallet was not saved.");
  });

  it("ends in the error state with the wallet's message when the connection fails", async () => {
    const ethereum = installEthereum();
    ethereum.failures.set("eth_requestAccounts", rpcError(-32002, "Already processing eth_requestAccounts. Please wait."));
    const { savedAddresses } = mockServer();
    const { result } = await renderWallet();

    await connect(result);

    expect(result.current.status).toBe("error");
    expect(savedAddresses).toEqual([]);
    expect(screen.getByRole("alert")).toHaveTextContent("Already processing eth_requestAccounts");
  });

  it("says in the reader's language that the request was declined", async () => {
    const ethereum = installEthereum();
    ethereum.failures.set("eth_requestAccounts", rpcError(4001, "User rejected the request."));
    mockServer();
    const { result } = await renderWallet();

    await connect(result);

    expect(screen.getByRole("alert")).toHaveTextContent("You declined the request in your wallet.");
  });

  it("adopts an account the site may already see, without a prompt and without saving it", async () => {
    const ethereum = installEthereum();
    ethereum.authorisedAccounts = [READER_ACCOUNT];
    const { savedAddresses } = mockServer();
    const { result } = await renderWallet();

    await waitFor(() => expect(result.current.status).toBe("connected"));
    expect(result.current.account).toBe(READER_ACCOUNT);
    expect(ethereum.methods()).not.toContain("eth_requestAccounts");
    expect(savedAddresses).toEqual([]);
  });

  it("disconnects in this page only, and then ignores the wallet's account changes", async () => {
    const ethereum = installEthereum();
    const { savedAddresses } = mockServer();
    const { result } = await renderWallet();
    await connect(result);
    const requestsBefore = ethereum.requests.length;

    act(() => result.current.disconnect());

    expect(result.current.status).toBe("disconnected");
    expect(ethereum.requests).toHaveLength(requestsBefore);
    expect(screen.getByRole("status")).toHaveTextContent("Wallet disconnected");
    expect(screen.getByRole("status")).toHaveTextContent("Your wallet has been disconnected from this page.");
    act(() => ethereum.emit("accountsChanged", [OTHER_ACCOUNT]));
    expect(savedAddresses).toEqual([READER_ACCOUNT]);
  });

  it("stops listening to the wallet when unmounted", async () => {
    const ethereum = installEthereum();
    mockServer();
    const { unmount } = await renderWallet();
    expect(ethereum.listenerCount("accountsChanged")).toBe(1);
    expect(ethereum.listenerCount("chainChanged")).toBe(1);

    unmount();

    expect(ethereum.listenerCount("accountsChanged")).toBe(0);
    expect(ethereum.listenerCount("chainChanged")).toBe(0);
  });

  it("asks the wallet to watch PME, and says so when it cannot", async () => {
    const ethereum = installEthereum(new FakeEthereum());
    mockServer();
    const { result } = await renderWallet();

    await act(() => result.current.addToken());
    expect(ethereum.requests.at(-1)).toEqual({
      method: "wallet_watchAsset",
      params: { type: "ERC20", options: { address: localChainConfig.token.address, symbol: "PME", decimals: 18 } },
    });
    expect(screen.getByRole("status")).toHaveTextContent("PME added");

    ethereum.failures.set("wallet_watchAsset", rpcError(-32603, "Internal error"));
    await act(() => result.current.addToken());
    expect(screen.getByRole("alert")).toHaveTextContent("Could not add PME");
  });
  it("finds every wallet that announces itself (EIP-6963), connects the one chosen and keeps that choice", async () => {
    const metaMask = announceWallet("MetaMask", "io.metamask");
    const rabby = announceWallet("Rabby", "io.rabby");
    const { savedAddresses } = mockServer();
    const { result } = await renderWallet();

    expect(result.current.wallets.map((wallet) => wallet.info.name)).toEqual(["MetaMask", "Rabby"]);
    expect(result.current.activeWallet).toBeUndefined();
    expect(result.current.status).toBe("disconnected");

    await act(() => result.current.connect(result.current.wallets[1]));

    expect(rabby.methods()).toContain("personal_sign");
    expect(metaMask.methods()).not.toContain("eth_requestAccounts");
    expect(savedAddresses).toEqual([READER_ACCOUNT]);
    expect(result.current).toMatchObject({ status: "connected", activeWallet: { info: { rdns: "io.rabby" } } });
    expect(localStorage.getItem("plume.wallet")).toBe("io.rabby");
  });

  it("offers a wallet that both announces itself and sits in window.ethereum once, and uses it as the only one", async () => {
    installEthereum(announceWallet("MetaMask", "io.metamask"));
    mockServer();
    const { result } = await renderWallet();
    expect(result.current.wallets).toHaveLength(1);
    expect(result.current.activeWallet?.info.name).toBe("MetaMask");
    await connect(result);
    expect(result.current.status).toBe("connected");
  });

  it("ignores an announcement that is not a wallet's", async () => {
    window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: { info: { uuid: "x", name: "Fake", rdns: "x" }, provider: {} } }));
    window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: "not an object" }));
    mockServer();
    const { result } = await renderWallet();
    expect(result.current.wallets).toEqual([]);
    expect(result.current.status).toBe("unavailable");
  });
});
