import { SignClient } from "@walletconnect/sign-client";
import type { SignClientTypes } from "@walletconnect/types";
import { Wallet, getBytes } from "ethers";

export interface PhoneWallet {
  /** The account the wallet approves sessions with, checksummed. */
  address: string;
  /** Pairs with a dapp by its wc: URI, as scanning its QR code does; the session is approved as it arrives. */
  pair(uri: string): Promise<void>;
  /** The methods the dapp asked the wallet to run, in order. */
  requests: string[];
  /** How many sessions the wallet holds: one once approved, none once either side ended it. */
  sessionCount(): number;
  /** Ends every session from the phone, as its "Disconnect" does. */
  disconnect(): Promise<void>;
  close(): Promise<void>;
}

type KeyValueStorage = NonNullable<SignClientTypes.Options["storage"]>;

/** The SDK's storage in memory: a test leaves no file behind. */
function memoryStorage(): KeyValueStorage {
  const items = new Map<string, unknown>();
  return {
    getKeys: async () => [...items.keys()],
    getEntries: async <T = unknown>() => [...items.entries()] as [string, T][],
    getItem: async <T = unknown>(key: string) => items.get(key) as T | undefined,
    setItem: async <T = unknown>(key: string, value: T) => void items.set(key, value),
    removeItem: async (key: string) => void items.delete(key),
  };
}

/**
 * A phone wallet app on WalletConnect's Sign protocol (the SDK wallets build on), in the test process:
 * it approves the session for one account on the given chain and answers the requests a person who
 * approves everything would, personal_sign with a real signature by the account's key.
 */
export async function startPhoneWallet({ privateKey, chainId, projectId, relayUrl }: { privateKey: string; chainId: number; projectId: string; relayUrl: string }): Promise<PhoneWallet> {
  const wallet = new Wallet(privateKey);
  const client = await SignClient.init({
    projectId,
    relayUrl,
    storage: memoryStorage(),
    // A core of its own, not the process's shared one, which a dapp in the same process would also get.
    customStoragePrefix: "phone-wallet",
    telemetryEnabled: false,
    logger: "silent",
    metadata: { name: "Test phone wallet", description: "A wallet of Plume's tests", url: "https://wallet.plume.test", icons: [] },
  });
  const requests: string[] = [];

  client.on("session_proposal", ({ id, params }) => {
    const asked = { ...params.optionalNamespaces, ...params.requiredNamespaces }.eip155;
    void client.approve({
      id,
      namespaces: {
        eip155: {
          accounts: [`eip155:${chainId}:${wallet.address}`],
          chains: [`eip155:${chainId}`],
          methods: asked?.methods ?? [],
          events: asked?.events ?? [],
        },
      },
    });
  });

  client.on("session_request", ({ id, topic, params }) => {
    const { method, params: args } = params.request as { method: string; params: unknown };
    requests.push(method);
    const answer = async (): Promise<unknown> => {
      switch (method) {
        case "personal_sign": {
          const [messageHex] = args as [string, string];
          return wallet.signMessage(getBytes(messageHex));
        }
        case "wallet_watchAsset":
          return true;
        default:
          return null;
      }
    };
    void answer().then((result) => client.respond({ topic, response: { id, jsonrpc: "2.0", result } }));
  });

  return {
    address: wallet.address,
    requests,
    sessionCount: () => client.session.getAll().length,
    disconnect: async () => {
      for (const { topic } of client.session.getAll()) await client.disconnect({ topic, reason: { code: 6000, message: "User disconnected." } });
    },
    pair: async (uri) => {
      await client.pair({ uri });
    },
    close: async () => {
      await client.core.relayer.transportClose();
    },
  };
}
