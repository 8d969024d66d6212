import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Contract, JsonRpcProvider, Wallet, parseUnits, toQuantity } from "ethers";
import pg from "pg";
import { LOCAL_CHAIN_ID, LOCAL_HOT_WALLET_KEY, type LocalChain, startLocalChain } from "../../server/chain/local-chain.ts";
import { pmeArtifact } from "../../server/chain/pme-artifact.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/client.ts";
import { freePort } from "../helpers/free-port.ts";
import { linkMailedTo } from "../helpers/mail-files.ts";
import { LIFTED_RATE_LIMITS, TEST_BACKGROUND_WORK, TEST_PASSWORD_HASHING, TEST_COPY_CHECKS } from "../helpers/test-app.ts";
import { type RunState, checkInvariants } from "./invariants.ts";
import { PlumeApi } from "./plume-api.ts";
import { type CallStage, type FaultKind, RpcFaultProxy } from "./rpc-fault-proxy.ts";
import { readHotWalletTransfers, readLedger, readStoredFiles } from "./run-state.ts";
import { SeededRandom } from "./seeded-random.ts";
import { type KillPhase, type KillRecord, SupervisedServer } from "./supervised-server.ts";
import { type Population, Workload, type WorkloadHooks, registerPopulation } from "./workload.ts";

export type DatabaseBackend = { kind: "pglite" } | { kind: "postgres"; serverUrl: string };

export interface RunReport {
  mode: "crash" | "fault";
  seed: number;
  fault?: FaultKind;
  kills: KillRecord[];
  faults: Partial<Record<FaultKind, number>>;
  /** Payout rounds the worker logged as failed (RPC errors it backed off from). */
  failedRounds: number;
  books: number;
  countedDownloads: number;
  payments: number;
  violations: string[];
  /** The command that plays this run again. */
  replay: string;
  durationMs: number;
  /** Kept for a look when the run broke an invariant. */
  dataDir?: string;
}

const ADMIN_EMAIL = "admin@reliability.test";
const TOKENS_PER_PAYMENT = parseUnits("1", 18);
/** Above any book's readers, so every first download of another reader counts. */
const COUNTED_PER_IP = 1000;
const PROMOTION_OPEN = "2100-01-01T00:00:00Z";
const PROMOTION_OVER = "2020-01-01T00:00:00Z";
const CRASH_DRAIN_MS = 90_000;
const FAULT_DRAIN_MS = 150_000;
/** Enough to hit more than one payout; each fault makes the worker back off (4 s, 8 s, …), so more would mostly add waiting. */
const FAULTS_PER_RUN = 2;
/** A live chain makes blocks whether or not anyone sends: confirmations need them. */
const BLOCK_INTERVAL_MS = 400;

type PayoutKillPoint = { method: "eth_sendRawTransaction"; stage: CallStage } | { method: "eth_getTransactionReceipt"; stage: "forwarded" };
const PAYOUT_KILL_POINTS: PayoutKillPoint[] = [
  { method: "eth_sendRawTransaction", stage: "received" },
  { method: "eth_sendRawTransaction", stage: "forwarded" },
  { method: "eth_getTransactionReceipt", stage: "forwarded" },
];

/** Where a crash run kills the server, all drawn from its seed. */
type KillPlan =
  | { phase: "upload" | "download"; at: number; delayMs: number; recoveryKillMs: number | null }
  | { phase: "payout"; point: PayoutKillPoint; occurrence: number; recoveryKillMs: number | null };

export const CRASH_PHASES = ["upload", "download", "payout"] as const;
export type CrashPhase = (typeof CRASH_PHASES)[number];

function planKill(random: SeededRandom, phase: CrashPhase = random.pick(CRASH_PHASES)): KillPlan {
  const recoveryKillMs = random.chance(0.25) ? random.int(50, 1500) : null;
  if (phase === "payout") return { phase, point: random.pick(PAYOUT_KILL_POINTS), occurrence: random.int(1, 3), recoveryKillMs };
  return { phase, at: random.next(), delayMs: random.int(0, phase === "upload" ? 150 : 30), recoveryKillMs };
}

/**
 * Crash and chain-fault runs of the real server: one Hardhat chain for all runs, a fault proxy in
 * front of it, and for every run a fresh database, data folder and hot wallet.
 */
export class ReliabilityHarness {
  private readonly provider: JsonRpcProvider;
  private readonly deployer: Wallet;
  /** The database every run starts from a copy of: migrated, with the population signed up. */
  private template: { dataDir: string; databaseName: string | null; population: Population } | undefined;

  private constructor(
    private readonly chain: LocalChain,
    private readonly proxy: RpcFaultProxy,
    private readonly backend: DatabaseBackend,
    private readonly keepFailedRuns: boolean,
  ) {
    this.provider = new JsonRpcProvider(chain.rpcUrl, LOCAL_CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    this.deployer = new Wallet(LOCAL_HOT_WALLET_KEY, this.provider);
  }

  static async start(options: { backend: DatabaseBackend; keepFailedRuns?: boolean }): Promise<ReliabilityHarness> {
    const chain = await startLocalChain(await freePort());
    const proxy = await RpcFaultProxy.start(chain.rpcUrl);
    const harness = new ReliabilityHarness(chain, proxy, options.backend, options.keepFailedRuns ?? false);
    try {
      await harness.prepareTemplate();
    } catch (error) {
      await harness.close();
      throw error;
    }
    return harness;
  }

  async close(): Promise<void> {
    this.provider.destroy();
    await this.proxy.close();
    await this.chain.stop();
    if (this.template) {
      rmSync(this.template.dataDir, { recursive: true, force: true });
      if (this.template.databaseName) await this.dropDatabase(this.template.databaseName);
    }
  }

  /** Starts the real server once on an empty database, signs the population up through it, and stops it. */
  private async prepareTemplate(): Promise<void> {
    const dataDir = mkdtempSync(join(tmpdir(), "plume-reliability-template-"));
    const databaseName = this.backend.kind === "postgres" ? await this.createDatabase() : null;
    const server = new SupervisedServer({
      ...this.baseSettings(LOCAL_HOT_WALLET_KEY, 1),
      DATA_DIR: dataDir,
      ...(databaseName ? { DATABASE_URL: this.databaseUrl(databaseName) } : {}),
    });
    try {
      await server.start();
      const population = await registerPopulation(new PlumeApi(() => server.url()), ADMIN_EMAIL);
      // Admin rights need the address proven (docs/product.md#roles): the link the server wrote under
      // DATA_DIR/mail, opened signed in to the admin's account (docs/decisions/0054).
      const token = (await linkMailedTo(join(dataDir, "mail"), ADMIN_EMAIL)).searchParams.get("token");
      const verified = await fetch(`${server.url()}/api/auth/verify-email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", cookie: population.admin.cookie },
        body: JSON.stringify({ token }),
      });
      if (verified.status !== 200) throw new Error(`The admin's address was not verified: ${verified.status} ${await verified.text()}`);
      const unclean = await server.stop();
      if (unclean) throw new Error(`The template server did not stop cleanly, ${unclean}: ${server.output.slice(-500)}`);
      this.template = { dataDir, databaseName, population };
    } catch (error) {
      await server.destroy();
      rmSync(dataDir, { recursive: true, force: true });
      if (databaseName) await this.dropDatabase(databaseName);
      throw error;
    }
  }

  private baseSettings(hotWalletKey: string, confirmations: number): Record<string, string> {
    return {
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: "0",
      SESSION_SECRET: "reliability-session-secret-".padEnd(48, "x"),
      ADMIN_EMAIL,
      COUNTED_PER_IP_PER_BOOK_PER_DAY: String(COUNTED_PER_IP),
      PAYOUT_HOLD_HOURS: "0",
      // The run's server is the only one on its files: what a crash left is swept at once, as the invariants expect.
      ORPHAN_GRACE_MINUTES: "0",
      RPC_URL: this.proxy.url,
      CHAIN_ID: String(LOCAL_CHAIN_ID),
      PME_TOKEN_ADDRESS: this.chain.tokenAddress,
      BATCH_PAYER_ADDRESS: this.chain.batchPayerAddress,
      PME_DEPLOY_BLOCK: String(this.chain.deployBlock),
      PAYOUT_PRIVATE_KEY: hotWalletKey,
      CONFIRMATIONS: String(confirmations),
      // Every abuse limit out of the way: all readers share 127.0.0.1.
      ...LIFTED_RATE_LIMITS,
      ...TEST_PASSWORD_HASHING,
      ...TEST_BACKGROUND_WORK,
      ...TEST_COPY_CHECKS,
    };
  }

  /**
   * One crash run: traffic, a SIGKILL at a seeded point (sometimes a second one while recovering),
   * restart, drain, invariants. The phase of the kill is drawn from the seed unless given.
   */
  async crashRun(seed: number, phase?: CrashPhase): Promise<RunReport> {
    const random = new SeededRandom(seed);
    const plan = planKill(random, phase);
    const replay = `--mode crash --runs 1 --seed ${seed}${phase ? ` --phase ${phase}` : ""}`;
    return this.run({ mode: "crash", seed, random, confirmations: 1, replay }, (server) => {
      let fired = false;
      let recoveryTimer: NodeJS.Timeout | undefined;
      const crash = (phase: KillPhase, point: string) => {
        const killed = server.crash({ phase, point });
        if (plan.recoveryKillMs !== null && phase !== "recovery") {
          void server.ready().then(() => {
            recoveryTimer = setTimeout(() => void server.crash({ phase: "recovery", point: `${plan.recoveryKillMs} ms after the restart` }), plan.recoveryKillMs!);
          }, () => {});
        }
        return killed;
      };
      const hooks: Partial<WorkloadHooks> = {
        operationStarted: (kind, index, total) => {
          if (fired || plan.phase !== kind || index !== Math.floor(plan.at * total)) return;
          fired = true;
          setTimeout(() => void crash(kind, `${kind} ${index + 1} of ${total}, ${plan.delayMs} ms in`), plan.delayMs);
        },
        beforeLateWallets: (milestonesOwed) => {
          if (plan.phase !== "payout") return;
          const occurrence = Math.min(plan.occurrence, Math.max(1, milestonesOwed));
          let seen = 0;
          this.proxy.interceptor = async (method, stage) => {
            if (method !== plan.point.method || stage !== plan.point.stage || ++seen < occurrence) return "continue";
            this.proxy.interceptor = null;
            await crash("payout", `${method} #${occurrence}, ${stage === "received" ? "before the node got it" : "after the node answered"}`);
            return "cut";
          };
        },
      };
      const missedKill = () => (server.kills.length === 0 ? [`the planned ${plan.phase} kill never happened (the harness missed its point)`] : []);
      return { hooks, lateWalletsOnly: plan.phase === "payout", finish: () => clearTimeout(recoveryTimer), check: missedKill };
    });
  }

  /** One chain-fault run: the payouts of a normal run go through a proxy injecting one kind of fault. */
  async faultRun(kind: FaultKind, seed: number): Promise<RunReport> {
    const random = new SeededRandom(seed);
    return this.run({ mode: "fault", fault: kind, seed, random, confirmations: 2, replay: `--mode faults --fault ${kind} --seed ${seed}` }, (_server, hotWalletKey) => {
      // A generator of its own: how the workload's draws and the proxy's interleave depends on timing.
      this.proxy.setFaults({ kind, probability: 0.4, budget: FAULTS_PER_RUN, hotWalletKey, random: new SeededRandom(seed ^ 0x5eed) });
      // Hardhat calls its newest block finalized, which a reorganisation then takes away: the chain
      // under faults finalizes one block behind, as a live one does, and payouts wait for that.
      this.proxy.setFinality({ behindBlocks: 1 });
      const miner = setInterval(() => void this.proxy.mineBlock().catch(() => {}), BLOCK_INTERVAL_MS);
      const finish = () => {
        clearInterval(miner);
        this.proxy.setFinality("node");
      };
      return { hooks: {}, lateWalletsOnly: false, finish, check: () => [] };
    });
  }

  private async run(
    run: { mode: RunReport["mode"]; fault?: FaultKind; seed: number; random: SeededRandom; confirmations: number; replay: string },
    arrange: (
      server: SupervisedServer,
      hotWalletKey: string,
    ) => { hooks: Partial<WorkloadHooks>; lateWalletsOnly: boolean; finish: () => void; check: () => string[] },
  ): Promise<RunReport> {
    const started = Date.now();
    const { random } = run;
    const dataDir = mkdtempSync(join(tmpdir(), "plume-reliability-run-"));
    const database = await this.prepareDatabase(dataDir);
    // A new hot wallet for every run, whatever its seed: the server's reconciliation reads all of its transfers.
    const hotWallet = Wallet.createRandom();
    const fromBlock = await this.fund(hotWallet.address);
    const promoCutoff = random.chance(0.5) ? PROMOTION_OPEN : PROMOTION_OVER;
    const settings = {
      ...this.baseSettings(hotWallet.privateKey, run.confirmations),
      DATA_DIR: dataDir,
      PROMO_CUTOFF: promoCutoff,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
    const server = new SupervisedServer(settings);
    const injectedBefore = { ...this.proxy.injected };
    const violations: string[] = [];
    let state: RunState | undefined;
    const arranged = arrange(server, hotWallet.privateKey);
    try {
      await server.start();
      const hooks: WorkloadHooks = { serverReady: () => server.ready(), operationStarted: () => {}, beforeLateWallets: () => {}, ...arranged.hooks };
      const workload = new Workload(new PlumeApi(() => server.url()), random, hooks, this.template!.population, {
        lateWalletsOnly: arranged.lateWalletsOnly,
      });
      try {
        await workload.run();
        violations.push(...(await workload.waitForPayouts(run.mode === "crash" ? CRASH_DRAIN_MS : FAULT_DRAIN_MS)));
        violations.push(...(await workload.adminReconciliation()));
      } finally {
        arranged.finish();
        this.proxy.interceptor = null;
        this.proxy.setFaults(null);
        violations.push(...workload.unexpected.map((message) => `unexpected answer: ${message}`));
      }
      const unclean = await server.stop();
      if (unclean) violations.push(`the server did not stop cleanly on SIGTERM: ${unclean}`);
      violations.push(...server.unexpectedExits, ...arranged.check());
      state = {
        promoCutoff: new Date(promoCutoff),
        countedPerIpPerBookPerDay: COUNTED_PER_IP,
        tokensPerPayment: TOKENS_PER_PAYMENT,
        ...(await this.readRows(dataDir, database.url)),
        transfers: await readHotWalletTransfers(this.provider, this.chain.tokenAddress, hotWallet.address, fromBlock),
        files: await readStoredFiles(loadConfig(settings)),
        acknowledged: workload.acknowledged,
      };
      violations.push(...checkInvariants(state));
    } catch (error) {
      violations.push(`the run could not finish: ${(error as Error).message}`);
      await server.destroy();
    } finally {
      arranged.finish();
      await database.drop();
    }
    const keep = violations.length > 0 && this.keepFailedRuns;
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
    const faults = Object.fromEntries(
      Object.entries(this.proxy.injected)
        .map(([kind, count]) => [kind, count - injectedBefore[kind as FaultKind]])
        .filter(([, count]) => Number(count) > 0),
    );
    return {
      mode: run.mode,
      seed: run.seed,
      ...(run.fault ? { fault: run.fault } : {}),
      kills: server.kills,
      faults,
      failedRounds: (server.output.match(/\[payouts\] round failed/g) ?? []).length,
      books: state?.books.length ?? 0,
      countedDownloads: state?.downloads.filter((row) => row.counted).length ?? 0,
      payments: state?.payments.length ?? 0,
      violations,
      replay: `npm run reliability -- ${run.replay}${this.backend.kind === "postgres" ? " --postgres" : ""}`,
      durationMs: Date.now() - started,
      ...(keep ? { dataDir } : {}),
    };
  }

  /** A fresh hot wallet with gas and PME; returns the block it starts from. */
  private async fund(address: string): Promise<number> {
    const fromBlock = await this.provider.getBlockNumber();
    await this.provider.send("hardhat_setBalance", [address, toQuantity(10n ** 21n)]);
    const token = new Contract(this.chain.tokenAddress, pmeArtifact.abi, this.deployer);
    await (await token.getFunction("transfer")(address, parseUnits("1000", 18))).wait();
    return fromBlock;
  }

  /** The run's own database, a copy of the template's: its data folder (PGlite), or a PostgreSQL database made from it. */
  private async prepareDatabase(dataDir: string): Promise<{ url?: string; drop(): Promise<void> }> {
    cpSync(this.template!.dataDir, dataDir, { recursive: true });
    const template = this.template!.databaseName;
    if (!template) return { drop: async () => {} };
    const name = await this.createDatabase(template);
    return { url: this.databaseUrl(name), drop: () => this.dropDatabase(name) };
  }

  private async createDatabase(template?: string): Promise<string> {
    const name = `plume_reliability_${randomBytes(6).toString("hex")}`;
    await this.withPostgres((client) => client.query(`create database ${name}${template ? ` template ${template}` : ""}`));
    return name;
  }

  private dropDatabase(name: string): Promise<void> {
    return this.withPostgres((client) => client.query(`drop database if exists ${name} with (force)`));
  }

  private databaseUrl(name: string): string {
    if (this.backend.kind !== "postgres") throw new Error("No PostgreSQL server configured");
    const url = new URL(this.backend.serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }

  private async withPostgres(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
    if (this.backend.kind !== "postgres") throw new Error("No PostgreSQL server configured");
    const client = new pg.Client({ connectionString: this.backend.serverUrl });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end();
    }
  }

  private async readRows(dataDir: string, databaseUrl: string | undefined) {
    const database = await openDatabase(databaseUrl ? { kind: "postgres", url: databaseUrl, poolSize: 2 } : { kind: "pglite", dataDir });
    try {
      return await readLedger(database.db);
    } finally {
      await database.close();
    }
  }
}
