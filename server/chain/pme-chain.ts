import { type Block, Contract, Interface, JsonRpcProvider, Transaction, type TransactionReceipt, isError } from "ethers";
import type { ChainSettings } from "../config.ts";
import type { FeeMarket, Fees } from "./fee-pricing.ts";
import { isUnderpriced } from "./fee-pricing.ts";
import { LocalKeySigner, type PayoutSigner, type SignedTransfer } from "./payout-signer.ts";
import { BatchPayer } from "./batch-payer.ts";
import { pmeArtifact } from "./pme-artifact.ts";

export type { Fees } from "./fee-pricing.ts";
export type { SignedTransfer } from "./payout-signer.ts";

/** Which chain a transaction was signed for: a restarted local chain has another genesis. */
export interface ChainIdentity {
  chainId: number;
  genesisHash: string;
  tokenAddress: string;
}

/**
 * How a payout is known final: the node's `finalized` block (Polygon's milestones), or, on a node
 * that does not answer that tag, a fixed depth of CONFIRMATIONS blocks.
 */
export type FinalityMode = "finalized-tag" | "depth";

export interface Heads {
  latest: number;
  /** The newest block no reorganisation can change: a payout mined at or below it is completed. */
  settled: number;
  mode: FinalityMode;
  /** How far finality trails the newest block, in blocks and in the seconds between their timestamps (0 by depth). */
  lagBlocks: number;
  lagSeconds: number;
}

/** What the node did with a transaction it was sent; "underpriced" never entered its pool. */
export type BroadcastOutcome = { accepted: true } | { accepted: false; underpriced: string };

/** A PME transfer out of the hot wallet, as its log says. */
export interface OutgoingTransfer {
  transactionHash: string;
  logIndex: number;
  to: string;
  amount: bigint;
  blockNumber: number;
}

/** An OpenZeppelin ERC-20 transfer uses about 52k gas at most; unused gas is not charged. */
const TRANSFER_GAS_LIMIT = 100_000n;
const pmeInterface = new Interface(pmeArtifact.abi);

/**
 * The hot wallet's view of the PME token on the configured chain: everything the payout worker
 * needs, and nothing that keeps state between calls (nonces and transactions live in the database).
 */
export class PmeChain {
  readonly provider: JsonRpcProvider;
  /** The hot wallet, as its signer knows it: its key may live elsewhere (docs/decisions/0038). */
  readonly hotWallet: PayoutSigner;
  /** The batch payer's side of the hot wallet: one transaction pays many payments (docs/decisions/0039). */
  readonly batches: BatchPayer;
  private readonly token: Contract;
  /** Asked once per connection; an answer lost to the network is asked again. */
  private finalityMode: Promise<FinalityMode> | undefined;

  constructor(
    private readonly settings: ChainSettings,
    signer: PayoutSigner = new LocalKeySigner(settings.payoutPrivateKey),
  ) {
    // cacheTimeout -1: an automining node changes state between two identical calls. batchStallTime 0:
    // ethers holds every call 10 ms by default to batch it with later ones, which made each of the
    // worker's sends, one after another, three times slower; calls made together are still batched.
    this.provider = new JsonRpcProvider(settings.rpcUrl, settings.chainId, { staticNetwork: true, cacheTimeout: -1, batchStallTime: 0 });
    this.hotWallet = signer;
    this.token = new Contract(settings.tokenAddress, pmeArtifact.abi, this.provider);
    this.batches = new BatchPayer(this.provider, signer, { chainId: settings.chainId, tokenAddress: settings.tokenAddress, address: settings.batchPayerAddress });
  }

  get chainId(): number {
    return this.settings.chainId;
  }

  get confirmations(): number {
    return this.settings.confirmations;
  }

  async identity(): Promise<ChainIdentity> {
    const genesis = await this.provider.getBlock(0);
    if (!genesis?.hash) throw new Error("The chain has no genesis block");
    return { chainId: this.settings.chainId, genesisHash: genesis.hash, tokenAddress: this.settings.tokenAddress };
  }

  /** Transactions of the hot wallet mined up to this block: every nonce below the answer is used. */
  minedNonce(block: number): Promise<number> {
    return this.provider.getTransactionCount(this.hotWallet.address, block);
  }

  pendingNonce(): Promise<number> {
    return this.provider.getTransactionCount(this.hotWallet.address, "pending");
  }

  blockNumber(): Promise<number> {
    return this.provider.getBlockNumber();
  }

  /**
   * The newest block, and the newest no reorganisation can change: the node's finalized block
   * where it answers the tag, else the block `confirmations` deep (docs/product.md#payouts). The lag
   * is measured between block timestamps: Polygon's blocks are not a fixed 2 s apart.
   */
  async heads(): Promise<Heads> {
    if ((await this.detectFinalityMode()) === "depth") {
      const latest = await this.blockNumber();
      return { latest, settled: Math.max(-1, latest - Math.max(this.confirmations, 1) + 1), mode: "depth", lagBlocks: 0, lagSeconds: 0 };
    }
    const [latest, finalized] = await Promise.all([this.provider.getBlock("latest"), this.finalizedBlock()]);
    if (!latest || !finalized) throw new Error("The node did not name its latest and finalized blocks");
    return {
      latest: latest.number,
      settled: finalized.number,
      mode: "finalized-tag",
      lagBlocks: Math.max(0, latest.number - finalized.number),
      lagSeconds: Math.max(0, latest.timestamp - finalized.timestamp),
    };
  }

  private detectFinalityMode(): Promise<FinalityMode> {
    this.finalityMode ??= this.finalizedBlock().then(
      (block) => (block ? "finalized-tag" : "depth"),
      (error: unknown) => {
        // A node that answered, with an error about the tag, lacks it; a call that never got an answer says nothing.
        if (isError(error, "UNKNOWN_ERROR") || isError(error, "UNSUPPORTED_OPERATION") || isError(error, "INVALID_ARGUMENT")) return "depth";
        this.finalityMode = undefined;
        throw error;
      },
    );
    return this.finalityMode;
  }

  /** The node's finalized block; null, or an error answer, where it does not know the tag. */
  protected finalizedBlock(): Promise<Block | null> {
    return this.provider.getBlock("finalized");
  }

  /** The hot wallet's POL (the gas it pays with). */
  gasBalance(): Promise<bigint> {
    return this.provider.getBalance(this.hotWallet.address);
  }

  async tokenBalance(): Promise<bigint> {
    return (await this.token.getFunction("balanceOf")(this.hotWallet.address)) as bigint;
  }

  /** The base fee of the newest block and the node's suggested tip (1 gwei, as ethers assumes, where it has none). */
  async feeMarket(): Promise<FeeMarket> {
    const [latest, suggested] = await Promise.all([
      this.provider.getBlock("latest"),
      this.provider.send("eth_maxPriorityFeePerGas", []).then((tip: string) => BigInt(tip), () => 1_000_000_000n),
    ]);
    return { baseFeePerGas: latest?.baseFeePerGas ?? 0n, suggestedPriorityFeePerGas: suggested };
  }

  /**
   * Signs through the hot wallet's signer; the transaction is built here, with everything already
   * known, rather than resolved by an ethers Wallet (1.7 times the cost, with a parse for the hash).
   */
  async signTransfer(to: string, amountWei: bigint, nonce: number, fees: Fees): Promise<SignedTransfer> {
    const transaction = Transaction.from({
      type: 2,
      chainId: this.settings.chainId,
      nonce,
      to: this.settings.tokenAddress,
      data: pmeInterface.encodeFunctionData("transfer", [to, amountWei]),
      value: 0n,
      gasLimit: TRANSFER_GAS_LIMIT,
      ...fees,
    });
    transaction.signature = await this.hotWallet.signDigest(transaction.unsignedHash);
    return { raw: transaction.serialized, hash: transaction.hash! };
  }

  /** The fees a stored transaction was signed with (a replacement must outbid them). */
  static feesOf(raw: string): Fees {
    const transaction = Transaction.from(raw);
    return { maxFeePerGas: transaction.maxFeePerGas ?? 0n, maxPriorityFeePerGas: transaction.maxPriorityFeePerGas ?? 0n };
  }

  /**
   * Sends a signed transaction. A node that already has it, or whose nonce is already used,
   * answers with an error that is not a failure here: the receipt lookup decides what happened.
   * A refusal for its fees is told apart, for the worker to price it again.
   */
  async broadcast(raw: string): Promise<BroadcastOutcome> {
    try {
      await this.provider.send("eth_sendRawTransaction", [raw]);
    } catch (error) {
      const message = (error as Error).message ?? "";
      if (/already known|known transaction|nonce too low|nonce has already been used|already imported/i.test(message)) return { accepted: true };
      if (isUnderpriced(message)) return { accepted: false, underpriced: message };
      throw error;
    }
    return { accepted: true };
  }

  /** The PME transfers the hot wallet made in these blocks (both included), oldest first. */
  async outgoingTransfers(fromBlock: number, toBlock: number): Promise<OutgoingTransfer[]> {
    const events = await this.token.queryFilter(this.token.filters.Transfer!(this.hotWallet.address), fromBlock, toBlock);
    return events.map((event) => {
      const { args } = pmeInterface.parseLog(event)!;
      return { transactionHash: event.transactionHash, logIndex: event.index, to: args[1] as string, amount: args[2] as bigint, blockNumber: event.blockNumber };
    });
  }

  /**
   * The block the token was deployed in: `PME_DEPLOY_BLOCK` when set, else found by halving the
   * chain on whether the token's code is there yet (one call per halving; it needs a node that
   * answers for old blocks, which the setting spares).
   */
  async deploymentBlock(): Promise<number> {
    if (this.settings.deployBlock !== undefined) return this.settings.deployBlock;
    let [before, at] = [-1, await this.blockNumber()];
    if ((await this.provider.getCode(this.settings.tokenAddress, at)) === "0x") throw new Error("The PME token has no code on this chain");
    try {
      while (at - before > 1) {
        const middle = Math.floor((before + at) / 2);
        if ((await this.provider.getCode(this.settings.tokenAddress, middle)) === "0x") before = middle;
        else at = middle;
      }
    } catch (error) {
      // A node that keeps recent state only (most public ones) cannot answer for old blocks.
      throw new Error(`The token's deployment block could not be found on this node; set PME_DEPLOY_BLOCK (${(error as Error).message.split("\n")[0]})`, { cause: error });
    }
    return at;
  }

  receipt(hash: string): Promise<TransactionReceipt | null> {
    return this.provider.getTransactionReceipt(hash);
  }

  destroy(): void {
    this.provider.destroy();
  }
}
