import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

export interface LocalRelay {
  /** ws://127.0.0.1:<port>: what WALLETCONNECT_RELAY_URL is set to. */
  url: string;
  close(): Promise<void>;
}

interface RelayRequest {
  id: number | string;
  method: string;
  params?: Record<string, unknown>;
}

/** What the relay files under a topic: the encrypted envelope a subscriber receives, never read here. */
interface RelayMessage {
  topic: string;
  message: string;
  publishedAt: number;
  tag: number;
}

// The tags WalletConnect's relay gives the messages it publishes itself for wc_proposeSession and wc_approveSession.
const SESSION_PROPOSE_TAG = 1100;
const SESSION_PROPOSE_RESPONSE_TAG = 1101;
const SESSION_SETTLE_TAG = 1102;
const KEEPALIVE_MS = 10_000;

/**
 * A WalletConnect v2 relay on a loopback port, for tests (docs/decisions/0109-walletconnect.md): the
 * relay protocol is JSON-RPC over a WebSocket, where each client subscribes to topics and publishes
 * encrypted messages to them. The relay only routes: a message goes to every other socket subscribed
 * to its topic, and waits in the topic's mailbox when none is, until someone subscribes.
 * Session proposals and approvals travel by the two relay methods the SDK uses for them
 * (wc_proposeSession, wc_approveSession), which publish their messages on the pairing and session topics
 * and subscribe their sender to the topic its answer will come on.
 */
export async function startLocalRelay(): Promise<LocalRelay> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  const subscribers = new Map<string, Map<WebSocket, string>>();
  const mailboxes = new Map<string, RelayMessage[]>();
  let nextSubscriptionId = 0;
  let nextPushId = 0;

  const deliver = (socket: WebSocket, subscriptionId: string, data: RelayMessage) => {
    socket.send(JSON.stringify({ id: ++nextPushId, jsonrpc: "2.0", method: "irn_subscription", params: { id: subscriptionId, data } }));
  };

  const publish = (sender: WebSocket, topic: string, message: string, tag: number) => {
    const data: RelayMessage = { topic, message, publishedAt: Date.now(), tag };
    const others = [...(subscribers.get(topic) ?? [])].filter(([socket]) => socket !== sender);
    if (others.length === 0) mailboxes.set(topic, [...(mailboxes.get(topic) ?? []), data]);
    for (const [socket, subscriptionId] of others) deliver(socket, subscriptionId, data);
  };

  const subscribe = (socket: WebSocket, topic: string): string => {
    const topicSubscribers = subscribers.get(topic) ?? new Map<WebSocket, string>();
    subscribers.set(topic, topicSubscribers);
    const subscriptionId = topicSubscribers.get(socket) ?? `subscription-${++nextSubscriptionId}`;
    topicSubscribers.set(socket, subscriptionId);
    const waiting = mailboxes.get(topic) ?? [];
    mailboxes.delete(topic);
    // The answer to the subscription goes first, then what waited for it.
    setImmediate(() => {
      for (const data of waiting) deliver(socket, subscriptionId, data);
    });
    return subscriptionId;
  };

  const unsubscribe = (socket: WebSocket, topic: string) => {
    subscribers.get(topic)?.delete(socket);
  };

  const answer = (socket: WebSocket, { method, params = {} }: RelayRequest): unknown => {
    switch (method) {
      case "irn_subscribe":
        return subscribe(socket, String(params.topic));
      case "irn_batchSubscribe":
        return (params.topics as string[]).map((topic) => subscribe(socket, topic));
      case "irn_unsubscribe":
        unsubscribe(socket, String(params.topic));
        return true;
      case "irn_batchUnsubscribe":
        for (const { topic } of params.subscriptions as { topic: string }[]) unsubscribe(socket, topic);
        return true;
      case "irn_publish":
        publish(socket, String(params.topic), String(params.message), Number(params.tag ?? 0));
        return true;
      case "irn_batchPublish":
        for (const each of params.messages as { topic: string; message: string; tag?: number }[]) publish(socket, each.topic, each.message, each.tag ?? 0);
        return true;
      // Waiting messages are delivered on subscription, so a fetch finds none left.
      case "irn_batchFetchMessages":
        return { messages: [], hasMore: false };
      // The proposer is subscribed to the pairing topic, where the answer will come, by the relay itself.
      case "wc_proposeSession":
        subscribe(socket, String(params.pairingTopic));
        publish(socket, String(params.pairingTopic), String(params.sessionProposal), SESSION_PROPOSE_TAG);
        return true;
      case "wc_approveSession":
        subscribe(socket, String(params.sessionTopic));
        publish(socket, String(params.pairingTopic), String(params.sessionProposalResponse), SESSION_PROPOSE_RESPONSE_TAG);
        publish(socket, String(params.sessionTopic), String(params.sessionSettlementRequest), SESSION_SETTLE_TAG);
        return true;
      default:
        throw new Error(`The local relay does not serve ${method}.`);
    }
  };

  server.on("connection", (socket) => {
    // Node clients of the SDK drop a connection whose relay has not pinged for 30 s as stalled.
    const pinging = setInterval(() => socket.ping(), KEEPALIVE_MS);
    socket.on("message", (raw) => {
      const payload = JSON.parse(String(raw)) as RelayRequest | { id: number; result?: unknown };
      // The clients' acknowledgements of irn_subscription need no answer.
      if (!("method" in payload)) return;
      try {
        socket.send(JSON.stringify({ id: payload.id, jsonrpc: "2.0", result: answer(socket, payload) }));
      } catch (error) {
        socket.send(JSON.stringify({ id: payload.id, jsonrpc: "2.0", error: { code: -32601, message: (error as Error).message } }));
      }
    });
    socket.on("close", () => {
      clearInterval(pinging);
      for (const topicSubscribers of subscribers.values()) topicSubscribers.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const client of server.clients) client.terminate();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
