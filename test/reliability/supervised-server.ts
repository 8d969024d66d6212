import { ServerProcess } from "./server-process.ts";

export type KillPhase = "upload" | "download" | "payout" | "recovery";

export interface KillRecord {
  phase: KillPhase;
  /** Exactly where: which request had started, or which RPC call the server was waiting on. */
  point: string;
}

/**
 * The server of one run across its crashes: `crash` kills it with SIGKILL and starts it again on
 * the same data and settings; callers wait on `ready()` instead of tracking restarts themselves.
 * A server that ends without being told to is reported, never silently restarted.
 */
export class SupervisedServer {
  readonly kills: KillRecord[] = [];
  readonly unexpectedExits: string[] = [];
  /** Everything the run's server processes printed, in order. */
  output = "";
  private server: ServerProcess | undefined;
  private up: Promise<void> = Promise.resolve();
  private crashing: Promise<void> | undefined;
  private stopping = false;

  constructor(private readonly settings: Record<string, string>) {}

  async start(): Promise<void> {
    this.up = this.launch();
    await this.up;
  }

  private async launch(): Promise<void> {
    const server = await ServerProcess.start(this.settings, (text) => {
      this.output += text;
    });
    this.server = server;
    void server.exited.then(() => {
      if (this.server === server && !this.crashing && !this.stopping) this.unexpectedExits.push(`the server exited by itself: ${this.output.slice(-500)}`);
    });
  }

  /** Resolves once the server answers (rejects if it could not start again after a crash). */
  ready(): Promise<void> {
    return this.up;
  }

  url(): string {
    if (!this.server) throw new Error("The server was never started");
    return this.server.url;
  }

  /**
   * Kills the server now (resolving once it is dead) and starts it again in the background.
   * A second crash asked for while one is under way is the same crash; none happens once stopping.
   */
  crash(kill: KillRecord): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (this.crashing) return this.crashing;
    const server = this.server!;
    const killed = server.kill().then(() => {
      this.kills.push(kill);
    });
    this.crashing = killed;
    this.up = killed.then(() => this.launch()).finally(() => {
      this.crashing = undefined;
    });
    // A failed restart is reported through ready(); this promise only says the kill happened.
    this.up.catch(() => {});
    return killed;
  }

  /** Stops the server cleanly; says what went wrong, if anything. */
  async stop(): Promise<string | null> {
    await this.up;
    this.stopping = true;
    return this.server!.stop();
  }

  /** Kills whatever is left (after a failed run). */
  async destroy(): Promise<void> {
    this.stopping = true;
    await this.up.catch(() => {});
    await this.server?.kill();
  }
}
