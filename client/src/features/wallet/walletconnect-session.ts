import { UniversalProvider } from "@walletconnect/universal-provider";
import QRCode from "qrcode";
import i18n, { loadOtherScreenTexts } from "@/lib/i18n";
import { toHexChainId, USER_REJECTED_REQUEST } from "@/features/wallet/ethereum";
import { showPairing, type WalletConnectTarget } from "@/features/wallet/walletconnect-state";

/**
 * A WalletConnect session with a phone wallet (docs/decisions/0109), loaded only when an author chooses
 * WalletConnect: @walletconnect/universal-provider, the Sign protocol's client without Reown's modal,
 * and the QR code of the pairing link.
 */
export interface WalletConnectSession {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  end(): Promise<void>;
}

/** Every wallet method the app calls (client/src/features/wallet/ethereum.ts); the accounts and the chain the SDK answers itself. */
const METHODS = ["personal_sign", "wallet_switchEthereumChain", "wallet_addEthereumChain", "wallet_watchAsset"];
const EVENTS = ["accountsChanged", "chainChanged"];

type SdkClient = Awaited<ReturnType<typeof UniversalProvider.init>>;

type Emit = (event: "accountsChanged" | "chainChanged", value: string[] | string) => void;

const rejected = () => Object.assign(new Error("Connection cancelled."), { code: USER_REJECTED_REQUEST });

/** How long the relay may take to carry the proposal before the author is told it cannot be reached (the SDK itself retries for over a minute). */
const RELAY_WAIT_MS = 15_000;

/**
 * The page's one SDK client: the SDK keeps one core per page whatever it is asked, so a second client would
 * share it (and warn). Its events go to the page's WalletConnect wallet, whose settings do not change.
 */
let client: Promise<SdkClient> | undefined;

async function startClient({ settings, productName }: WalletConnectTarget, emit: Emit): Promise<SdkClient> {
  const provider = await UniversalProvider.init({
    projectId: settings.projectId,
    relayUrl: settings.relayUrl,
    metadata: { name: productName, description: productName, url: window.location.origin, icons: [`${window.location.origin}/favicon.svg`] },
    // Nothing leaves for WalletConnect's servers but the relay's traffic: no usage events, and no health
    // check of an RPC endpoint the app never calls through the SDK.
    telemetryEnabled: false,
    disableProviderPing: true,
    logger: "silent",
  });
  // WalletConnect's Verify frames verify.walletconnect.org in the page to vouch for its origin to the wallet;
  // the page's CSP frames nothing, and the wallet then shows the origin as unverified (docs/decisions/0109).
  provider.client.core.verify.register = async () => "";
  // The SDK names chains in decimal; a wallet's events, as EIP-1193 has them, in hex.
  provider.on("chainChanged", (chainId: string | number) => emit("chainChanged", toHexChainId(Number(chainId))));
  provider.on("accountsChanged", (accounts: string[]) => emit("accountsChanged", accounts));
  provider.on("disconnect", () => emit("accountsChanged", []));
  return provider;
}

export async function openSession(target: WalletConnectTarget, emit: Emit): Promise<WalletConnectSession> {
  const chain = `eip155:${target.token.chainId}`;
  client ??= startClient(target, emit);
  client.catch(() => {
    client = undefined;
  });
  // The pairing dialog's texts are those of the later screens.
  const [provider] = await Promise.all([client, loadOtherScreenTexts()]);

  let cancelConnection: () => void = () => undefined;
  let relayUnreachable: ReturnType<typeof setTimeout> | undefined;
  const cancelled = new Promise<never>((_resolve, reject) => {
    cancelConnection = () => reject(rejected());
    relayUnreachable = setTimeout(() => reject(new Error(i18n.t("walletConnect.relayUnreachable"))), RELAY_WAIT_MS);
  });
  const showUri = (uri: string) => {
    clearTimeout(relayUnreachable);
    void QRCode.toString(uri, { type: "svg", margin: 2 }).then((svg) => {
      showPairing({ uri, qrCode: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, cancel: cancelConnection });
    });
  };
  provider.on("display_uri", showUri);
  try {
    await Promise.race([
      provider.connect({
        optionalNamespaces: { eip155: { chains: [chain], methods: METHODS, events: EVENTS, rpcMap: { [chain]: target.token.rpcUrl } } },
      }),
      cancelled,
    ]);
  } catch (error) {
    void provider.cleanupPendingPairings({ deletePairings: true });
    throw error;
  } finally {
    clearTimeout(relayUnreachable);
    provider.removeListener("display_uri", showUri);
    showPairing(null);
  }

  return {
    request: async ({ method, params }) => {
      const answer = await provider.request({ method, params: params as unknown[] | undefined });
      return method === "eth_chainId" ? toHexChainId(Number(answer)) : answer;
    },
    end: () => provider.disconnect(),
  };
}
