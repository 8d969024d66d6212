/**
 * What every benchmark module (bench/catalog.ts, bench/downloads.ts…) gives the runner: typed
 * figures, each with the peers measured in the same run and the budget it is judged against.
 */

/** A figure of a peer (a bare baseline, another product) measured beside ours in the same run. */
export interface PeerFigure {
  /** Short and stable: budgets name their peer by it ("bare", "calibre"). */
  name: string;
  figure: number;
}

/**
 * A budget a figure must meet. Ratios compare with a peer of the same run, so they hold on a
 * noisy machine where absolute figures do not.
 */
export type Budget =
  | { kind: "at-most"; limit: number }
  | { kind: "at-least"; limit: number }
  | { kind: "ratio-at-least"; peer: string; ratio: number };

export interface BenchmarkResult {
  /** Dotted and stable across runs, e.g. "catalog.search.postgres.throughput". */
  name: string;
  figure: number;
  /** "req/s", "ms", "s"… */
  unit: string;
  peers: PeerFigure[];
  budgets: Budget[];
  /** Every budget met; null when the figure has no budget (it is reported for information). */
  met: boolean | null;
  /** What a reader of the table needs to read the figure right (sizes, what the peer ran). */
  note?: string;
}

export interface BenchmarkOptions {
  /** The short run of `npm run bench:quick`: a smaller seed and shorter measurements. */
  quick: boolean;
  /** Progress lines; the figures themselves go in the results. */
  log: (line: string) => void;
}

export interface BenchmarkRun {
  results: BenchmarkResult[];
  /** How the figures were made (seed sizes, durations, versions of the peers), kept in latest.json. */
  context: Record<string, unknown>;
}

/** One benchmark module: bench/<name>.ts exports one of these as `benchmark`. */
export interface Benchmark {
  name: string;
  run(options: BenchmarkOptions): Promise<BenchmarkRun>;
}

function meetsBudget(figure: number, peers: PeerFigure[], budget: Budget): boolean {
  switch (budget.kind) {
    case "at-most":
      return figure <= budget.limit;
    case "at-least":
      return figure >= budget.limit;
    case "ratio-at-least": {
      const peer = peers.find((candidate) => candidate.name === budget.peer);
      if (!peer) throw new Error(`The budget compares with "${budget.peer}", which was not measured`);
      return figure >= budget.ratio * peer.figure;
    }
  }
}

/** A result with its verdict: a budget naming a peer that was not measured is a bug, not a miss. */
export function judged(result: Omit<BenchmarkResult, "met">): BenchmarkResult {
  const met = result.budgets.length === 0 ? null : result.budgets.every((budget) => meetsBudget(result.figure, result.peers, budget));
  return { ...result, met };
}
