import { Contract, Interface, JsonRpcProvider, Transaction, type TransactionReceipt, Wallet } from "ethers";
import type { ChainSettings } from "../config.ts";
import { pmeArtifact } from "./pme-artifact.ts";

/** Which chain a transaction was signed for: a restarted local chain has another genesis. */
export interface ChainIdentity {
  chainId: number;
  genesisHash: string;
  tokenAddress: string;
}

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** A PME transfer out of the hot wallet, as its log says. */
export interface OutgoingTransfer {
  transactionHash: string;
  logIndex: number;
  to: string;
  amount: bigint;
  blockNumber: number;
}

export interface SignedTransfer {
  raw: string;
  hash: string;
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
  readonly hotWallet: Wallet;
  private readonly token: Contract;

  constructor(private readonly settings: ChainSettings) {
    // cacheTimeout -1: an automining node changes state between two identical calls. batchStallTime 0:
    // ethers holds every call 10 ms by default to batch it with later ones, which made each of the
    // worker's sends, one after another, three times slower; calls made together are still batched.
    this.provider = new JsonRpcProvider(settings.rpcUrl, settings.chainId, { staticNetwork: true, cacheTimeout: -1, batchStallTime: 0 });
    this.hotWallet = new Wallet(settings.payoutPrivateKey, this.provider);
    this.token = new Contract(settings.tokenAddress, pmeArtifact.abi, this.provider);
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
   * The newest block, and the newest no reorganisation can change: `confirmations` deep, and no
   * newer than the node's finalized block when it names one (Polygon's milestones do; a node that
   * does not is taken at depth alone).
   */
  async heads(): Promise<{ latest: number; settled: number }> {
    const [latest, finalized] = await Promise.all([this.blockNumber(), this.provider.getBlock("finalized").catch(() => null)]);
    const byDepth = latest - this.confirmations;
    return { latest, settled: finalized ? Math.min(byDepth, finalized.number) : byDepth };
  }

  async tokenBalance(): Promise<bigint> {
    return (await this.token.getFunction("balanceOf")(this.hotWallet.address)) as bigint;
  }

  async fees(): Promise<Fees> {
    const data = await this.provider.getFeeData();
    const maxPriorityFeePerGas = data.maxPriorityFeePerGas ?? 1_000_000_000n;
    return { maxFeePerGas: data.maxFeePerGas ?? maxPriorityFeePerGas * 2n, maxPriorityFeePerGas };
  }

  /**
   * Signs with the key directly: Wallet.signTransaction would resolve and check what is already known
   * here, and its raw form would have to be parsed again for the hash; together they cost 1.7 times as much.
   */
  signTransfer(to: string, amountWei: bigint, nonce: number, fees: Fees): SignedTransfer {
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
    transaction.signature = this.hotWallet.signingKey.sign(transaction.unsignedHash);
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
   */
  async broadcast(raw: string): Promise<void> {
    try {
      await this.provider.send("eth_sendRawTransaction", [raw]);
    } catch (error) {
      const message = (error as Error).message ?? "";
      if (/already known|known transaction|nonce too low|nonce has already been used|already imported/i.test(message)) return;
      throw error;
    }
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
