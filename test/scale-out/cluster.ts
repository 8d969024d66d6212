import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { Wallet } from "ethers";
import pg from "pg";
import { LOCAL_CHAIN_ID, LOCAL_HOT_WALLET_KEY, type LocalChain, startLocalChain } from "../../server/chain/local-chain.ts";
import { type Database, openDatabase } from "../../server/db/client.ts";
import { payoutLeases } from "../../server/db/schema.ts";
import { freePort } from "../helpers/free-port.ts";
import { type RunningNginx, startNginx } from "../helpers/nginx.ts";
import { type TestS3Server, startS3Server } from "../helpers/s3-server.ts";
import { LIFTED_RATE_LIMITS, TEST_BACKGROUND_WORK, TEST_PASSWORD_HASHING, TEST_COPY_CHECKS } from "../helpers/test-app.ts";
import { RpcFaultProxy } from "../reliability/rpc-fault-proxy.ts";
import { ServerProcess } from "../reliability/server-process.ts";

/** The header the harness's nginx adds to every answer: which upstream answered (nginx's `$upstream_addr`). */
export const UPSTREAM_HEADER = "x-upstream";
/** Enough of a member's output to explain a failure. */
const OUTPUT_KEPT = 20_000;
/** pino's error and fatal levels. */
const ERROR_LOG_LINE = /"level":(50|60)\b/;

export interface ClusterOptions {
  /** A PostgreSQL server where the cluster may create (and later drop) a database of its own. */
  postgresUrl: string;
  /** How many Plume processes: 3 unless told. */
  processes?: number;
  /** Settings every process gets on top of the cluster's own. */
  settings?: Record<string, string>;
  /** How node runs each process: as ServerProcess.start does unless told. */
  nodeArgs?: readonly string[];
}

/** One Plume process of the cluster. */
export interface ClusterMember {
  index: number;
  /** Its own address, past nginx. */
  url: string;
  port: number;
  server: ServerProcess;
  /** The JSON-RPC proxy in front of the chain that this process alone uses: what it sends is seen here. */
  rpc: RpcFaultProxy;
  dataDir: string;
  /** The end of what it printed. */
  output: string;
  /** Every line it logged at error level or above, whole: what explains an unexpected 500. */
  errors: string[];
}

/** A raw transaction a member sent, as its proxy saw it reach the node. */
export interface SentTransaction {
  member: number;
  at: number;
}

/** How long each part of the start took. */
export interface ClusterStartTimes {
  /** The chain (PME and batch payer deployed), the bucket and the empty database, side by side. */
  dependenciesMs: number;
  /** The processes, all at once on the empty database, until each printed its ready line. */
  processesMs: number;
  nginxMs: number;
  totalMs: number;
}

type Cleanup = () => Promise<void> | void;

/**
 * Several Plume processes as production runs them (docs/deploy.md, docs/decisions/0044): the same
 * start as `npm start` (server/server.ts, without the browser app), on one PostgreSQL database,
 * one bucket and one chain, each with its own port, data folder and process, behind nginx
 * balancing them round robin without sticky sessions. The harness's nginx adds which process
 * answered (`X-Upstream`); each process reaches the chain through a proxy of its own, so what each
 * one sends is seen, and a process can be killed at the instant the node took its transaction.
 * `close` leaves nothing behind: processes, database, bucket and folders.
 */
export class Cluster {
  readonly members: ClusterMember[] = [];
  readonly sent: SentTransaction[] = [];
  /** The address readers use: nginx in front of every member. */
  url = "";
  startTimes: ClusterStartTimes = { dependenciesMs: 0, processesMs: 0, nginxMs: 0, totalMs: 0 };
  readonly hotWallet = new Wallet(LOCAL_HOT_WALLET_KEY).address;
  private readonly cleanups: Cleanup[] = [];
  private readonly scratch = mkdtempSync(join(tmpdir(), "plume-cluster-"));
  private chainOf: LocalChain | undefined;
  private bucketOf: TestS3Server | undefined;
  private databaseOf: Database | undefined;
  private databaseUrlOf = "";
  /** The port of the nginx in front of every member: its address is their PUBLIC_URL, which links and wallet proofs name (docs/decisions/0053). */
  private sitePort = 0;
  private killAtSend = new Map<number, (at: number) => void>();

  private constructor(private readonly options: ClusterOptions) {
    this.cleanups.push(() => rmSync(this.scratch, { recursive: true, force: true }));
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    const cluster = new Cluster(options);
    try {
      await cluster.launch();
    } catch (error) {
      await cluster.close();
      throw error;
    }
    return cluster;
  }

  get chain(): LocalChain {
    return this.chainOf!;
  }

  get bucket(): TestS3Server {
    return this.bucketOf!;
  }

  /** The cluster's database, as the processes see it: for reading what they did. */
  get db(): Database["db"] {
    return this.databaseOf!.db;
  }

  get databaseUrl(): string {
    return this.databaseUrlOf;
  }

  private async launch(): Promise<void> {
    const started = performance.now();
    const [chain, bucket, databaseUrl, sitePort] = await Promise.all([
      this.track(freePort().then((port) => startLocalChain(port)), (value) => value.stop()),
      this.track(startS3Server(), (value) => value.close()),
      this.track(this.createDatabase(), (url) => this.dropDatabase(url)),
      freePort(),
    ]);
    this.sitePort = sitePort;
    this.chainOf = chain;
    this.bucketOf = bucket;
    this.databaseUrlOf = databaseUrl;
    const dependenciesDone = performance.now();

    const count = this.options.processes ?? 3;
    const sessionSecret = randomBytes(32).toString("base64url");
    await Promise.all(Array.from({ length: count }, (_, index) => this.startMember(index, sessionSecret)));
    this.members.sort((a, b) => a.index - b.index);
    const processesDone = performance.now();

    const nginx = await this.balance(this.members.map((member) => member.index), sitePort);
    this.url = nginx.url;
    // Opened once the processes have migrated it: the harness only reads.
    this.databaseOf = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 2 });
    this.cleanups.push(() => this.databaseOf?.close());
    const done = performance.now();
    this.startTimes = {
      dependenciesMs: Math.round(dependenciesDone - started),
      processesMs: Math.round(processesDone - dependenciesDone),
      nginxMs: Math.round(done - processesDone),
      totalMs: Math.round(done - started),
    };
  }

  /** Awaits something that starts, and registers how to undo it even if a sibling start fails. */
  private async track<T>(starting: Promise<T>, undo: (value: T) => Promise<void> | void): Promise<T> {
    const value = await starting;
    this.cleanups.push(() => undo(value));
    return value;
  }

  private async startMember(index: number, sessionSecret: string): Promise<void> {
    const chain = this.chain;
    const rpc = await this.track(RpcFaultProxy.start(chain.rpcUrl), (proxy) => proxy.close());
    const dataDir = join(this.scratch, `plume-${index + 1}`);
    const settings: Record<string, string> = {
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: dataDir,
      DATABASE_URL: this.databaseUrl,
      // The same in every process (docs/deploy.md, Secrets): a cookie signed by one is read by all.
      SESSION_SECRET: sessionSecret,
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${this.sitePort}`,
      ...this.bucket.env,
      RPC_URL: rpc.url,
      CHAIN_ID: String(LOCAL_CHAIN_ID),
      PME_TOKEN_ADDRESS: chain.tokenAddress,
      BATCH_PAYER_ADDRESS: chain.batchPayerAddress,
      PME_DEPLOY_BLOCK: String(chain.deployBlock),
      PAYOUT_PRIVATE_KEY: chain.payoutPrivateKey,
      CONFIRMATIONS: "1",
      PAYOUT_HOLD_HOURS: "0",
      ...LIFTED_RATE_LIMITS,
      ...TEST_PASSWORD_HASHING,
      // Covers drawn below the suites' priority could outlast a stop's 25 s on a busy machine.
      ...TEST_BACKGROUND_WORK,
      ...TEST_COPY_CHECKS,
      ...this.options.settings,
    };
    const member: Partial<ClusterMember> = { index, rpc, dataDir, output: "", errors: [] };
    let partLine = "";
    const server = await this.track(
      ServerProcess.start(
        settings,
        (text) => {
          member.output = (member.output + text).slice(-OUTPUT_KEPT);
          const lines = (partLine + text).split("\n");
          partLine = lines.pop()!;
          member.errors!.push(...lines.filter((line) => ERROR_LOG_LINE.test(line)));
        },
        undefined,
        this.options.nodeArgs,
      ),
      (started) => started.kill(),
    );
    const port = Number(new URL(server.url).port);
    Object.assign(member, { server, url: server.url, port });
    rpc.interceptor = async (method, stage) => {
      if (method !== "eth_sendRawTransaction" || stage !== "forwarded") return "continue";
      const at = performance.now();
      this.sent.push({ member: index, at });
      const killed = this.killAtSend.get(index);
      if (!killed) return "continue";
      this.killAtSend.delete(index);
      const killedAt = performance.now();
      await server.kill();
      killed(killedAt);
      return "cut";
    };
    this.members.push(member as ClusterMember);
  }

  /**
   * Another nginx in front of some members only (one, to compare with all); closed with the cluster.
   * Round robin, no sticky sessions: any process may answer any request. The cluster's own nginx
   * takes `port`, the one in its members' PUBLIC_URL.
   */
  async balance(members: number[], port?: number): Promise<RunningNginx> {
    // Not inside the cluster's own folder: nginx's workers (nobody, under root) could not reach it.
    const scratch = mkdtempSync(join(tmpdir(), "plume-cluster-nginx-"));
    this.cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
    const servers = members.map((index) => `    server 127.0.0.1:${this.members[index]!.port};`).join("\n");
    const nginx = await startNginx({
      port,
      scratch,
      probePath: "/healthz",
      logFile: join(scratch, "error.log"),
      http: `  access_log off;
  upstream plume {
${servers}
    keepalive 16;
    # Under Node's 5 s (docs/deploy.md): nginx never reuses a connection a process is closing.
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:{port};
    client_max_body_size 60m;
    location / {
      proxy_pass http://plume;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      # $http_host keeps the port, which the same-origin check compares: this nginx is not on 443.
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_read_timeout 300s;
      proxy_send_timeout 300s;
      add_header X-Upstream $upstream_addr always;
    }
  }`,
    });
    this.cleanups.push(() => nginx.stop());
    return nginx;
  }

  /** The member that answered through nginx: the last upstream it tried (a failed one is listed first). */
  memberOf(response: Response): number {
    const upstream = response.headers.get(UPSTREAM_HEADER)?.split(",").at(-1)?.trim();
    const member = this.members.find((candidate) => upstream === `127.0.0.1:${candidate.port}`);
    if (!member) throw new Error(`No member answered as ${upstream ?? "(no X-Upstream header)"}`);
    return member.index;
  }

  /**
   * The payout sender lease now: the member holding it, by the pid in its holder name, and how long it
   * has left by the database's clock (negative once over); null when no one holds it.
   */
  async lease(): Promise<{ member: number; expiresInMs: number } | null> {
    const [lease] = await this.db
      .select({ holder: payoutLeases.holder, expiresInMs: sql<number>`(extract(epoch from ${payoutLeases.expiresAt} - now()) * 1000)::float8` })
      .from(payoutLeases)
      .where(eq(payoutLeases.wallet, this.hotWallet));
    if (!lease) return null;
    const pid = Number(lease.holder.split(":")[1]);
    const member = this.members.find((candidate) => candidate.server.pid === pid);
    if (!member) throw new Error(`The lease is held by ${lease.holder}, no member of the cluster`);
    return { member: member.index, expiresInMs: Number(lease.expiresInMs) };
  }

  async leaseHolder(): Promise<number | null> {
    return (await this.lease())?.member ?? null;
  }

  /** Kills the member with SIGKILL the next time the node takes one of its transactions, before it hears back; resolves with when (performance.now()). */
  killAtNextSend(index: number): Promise<number> {
    return new Promise((resolve) => this.killAtSend.set(index, resolve));
  }

  /** The members still running. */
  live(): ClusterMember[] {
    return this.members.filter((member) => member.server.running);
  }

  /** Stops everything, in the reverse order it started; the members with SIGTERM first, as systemd would. Says which did not stop cleanly. */
  async close(): Promise<string[]> {
    const unclean: string[] = [];
    await Promise.all(
      this.live().map(async (member) => {
        const problem = await member.server.stop();
        if (problem) unclean.push(`plume-${member.index + 1}: ${problem}`);
        // Stopped cleanly, a member has finished the covers it was drawing from its copies (docs/decisions/0073).
        else for (const name of readdirSync(join(member.dataDir, "uploads", "tmp"))) unclean.push(`plume-${member.index + 1}: temporary file ${name} left behind`);
      }),
    );
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        unclean.push(`cleanup: ${(error as Error).message}`);
      }
    }
    return unclean;
  }

  private async createDatabase(): Promise<string> {
    const name = `plume_cluster_${randomBytes(6).toString("hex")}`;
    await this.withServer((client) => client.query(`create database ${name}`));
    const url = new URL(this.options.postgresUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }

  private async dropDatabase(url: string): Promise<void> {
    await this.withServer((client) => client.query(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`));
  }

  private async withServer(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.postgresUrl });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end();
    }
  }
}
