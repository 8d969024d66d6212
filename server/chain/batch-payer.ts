import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ContractFactory,
  Interface,
  type InterfaceAbi,
  JsonRpcProvider,
  MaxUint256,
  Transaction,
  type TransactionReceipt,
  Wallet,
  ZeroAddress,
  getAddress,
} from "ethers";
import { projectRoot } from "../paths.ts";
import type { Fees } from "./fee-pricing.ts";
import type { PayoutSigner, SignedTransfer } from "./payout-signer.ts";
import { pmeArtifact } from "./pme-artifact.ts";

/** The committed build of contracts/BatchPayer.sol (`npm run contracts:build`). */
export const batchPayerArtifact = JSON.parse(readFileSync(join(projectRoot, "contracts", "BatchPayer.json"), "utf8")) as {
  abi: InterfaceAbi;
  bytecode: string;
};

export interface BatchPayment {
  to: string;
  amount: bigint;
}

/** One payment a mined transaction made, as the token's Transfer log from the hot wallet says. */
export interface BatchTransfer {
  to: string;
  amount: bigint;
  logIndex: number;
}

/**
 * The gas a batch may use, an upper bound: unused gas is not charged, but the whole limit times the
 * max fee must be in the wallet, and the limit must fit in a block. Measured on the local chain
 * (bench/batch-payouts.ts): 28.2k a payment to a fresh recipient (its balance written from zero),
 * 45k for the call around them (a first payment from a cold balance, the calldata of the arrays).
 */
const BATCH_BASE_GAS = 60_000n;
const PAYMENT_GAS = 36_000n;
/**
 * 400 payments bound their limit to 14.5 M gas: under the 2^24 (16,777,216) gas a single transaction
 * may ask for since EIP-7825 (Hardhat enforces it; so will chains that follow Ethereum's Fusaka).
 */
export const MAX_BATCH_PAYMENTS = 400;

const batchInterface = new Interface(batchPayerArtifact.abi);
const pmeInterface = new Interface(pmeArtifact.abi);
const TRANSFER_TOPIC = pmeInterface.getEvent("Transfer")!.topicHash;

/** The gas limit a batch of this many payments is signed with. */
export const batchGasLimit = (payments: number) => BATCH_BASE_GAS + PAYMENT_GAS * BigInt(payments);

/** An approval uses 46k gas at most (OpenZeppelin 5); unused gas is not charged. */
const APPROVAL_GAS_LIMIT = 100_000n;

/**
 * The hot wallet's side of the batch payer contract (docs/decisions/0039): one transaction pays many
 * payments, all or none, out of the hot wallet's PME through its one-time approval of the contract.
 * Like PmeChain it keeps no state between calls: nonces and signed transactions live in the database.
 */
export class BatchPayer {
  private readonly tokenAddress: string;
  private readonly hotWalletTopic: string;

  /** @param chain its `address` is the batch payer deployed for this chain's PME (`tokenAddress`). */
  constructor(
    private readonly provider: JsonRpcProvider,
    private readonly hotWallet: PayoutSigner,
    private readonly chain: { chainId: number; tokenAddress: string; address: string },
  ) {
    this.tokenAddress = getAddress(chain.tokenAddress);
    this.hotWalletTopic = `0x${hotWallet.address.slice(2).toLowerCase().padStart(64, "0")}`;
  }

  /**
   * Signs one transaction paying every payment, built here as PmeChain.signTransfer builds a transfer.
   * A payment that could only revert the whole batch on chain (no recipient, nothing to pay) is refused
   * before it costs a nonce; one above the wallet's balance is the chain's to refuse.
   */
  async signBatch(payments: BatchPayment[], nonce: number, fees: Fees): Promise<SignedTransfer> {
    if (payments.length === 0 || payments.length > MAX_BATCH_PAYMENTS) {
      throw new RangeError(`A batch pays 1 to ${MAX_BATCH_PAYMENTS} payments, not ${payments.length}`);
    }
    const recipients = payments.map(({ to, amount }, index) => {
      const recipient = getAddress(to);
      if (recipient === ZeroAddress || amount <= 0n) throw new RangeError(`Payment ${index} of the batch pays ${amount} to ${to}`);
      return recipient;
    });
    const data = batchInterface.encodeFunctionData("pay", [recipients, payments.map((payment) => payment.amount)]);
    return this.sign({ to: this.chain.address, data, gasLimit: batchGasLimit(payments.length), nonce, fees });
  }

  /**
   * The payments a mined transaction made from the hot wallet, in the order it made them: its PME
   * Transfer logs. A reverted batch has none, since it paid nobody.
   */
  transfersOf(receipt: TransactionReceipt): BatchTransfer[] {
    return receipt.logs
      .filter((log) => log.topics[0] === TRANSFER_TOPIC && log.topics[1] === this.hotWalletTopic && getAddress(log.address) === this.tokenAddress)
      .map((log) => {
        const { args } = pmeInterface.parseLog(log)!;
        return { to: args[1] as string, amount: args[2] as bigint, logIndex: log.index };
      });
  }

  /** What the hot wallet lets the contract move, as of a block (the newest when not given). */
  async allowance(blockTag: number | "latest" = "latest"): Promise<bigint> {
    const data = pmeInterface.encodeFunctionData("allowance", [this.hotWallet.address, this.chain.address]);
    const answer = await this.provider.call({ to: this.tokenAddress, data, blockTag });
    // Before the token existed there is no code to answer, and so no allowance.
    return answer === "0x" ? 0n : BigInt(answer);
  }

  /**
   * The hot wallet's one-time approval of the contract, for the maximum (OpenZeppelin 5 never writes
   * it down again): signed here, sent and followed by the payout worker like its other transactions.
   */
  signApproval(nonce: number, fees: Fees): Promise<SignedTransfer> {
    const data = pmeInterface.encodeFunctionData("approve", [this.chain.address, MaxUint256]);
    return this.sign({ to: this.tokenAddress, data, gasLimit: APPROVAL_GAS_LIMIT, nonce, fees });
  }

  private async sign(call: { to: string; data: string; gasLimit: bigint; nonce: number; fees: Fees }): Promise<SignedTransfer> {
    const { fees, ...rest } = call;
    const transaction = Transaction.from({ type: 2, chainId: this.chain.chainId, value: 0n, ...rest, ...fees });
    transaction.signature = await this.hotWallet.signDigest(transaction.unsignedHash);
    return { raw: transaction.serialized, hash: transaction.hash! };
  }
}

/**
 * Deploys the batch payer for a token and approves it from the deployer, the hot wallet, so that
 * its first payout needs no approval round; returns its address. The payout worker still gives the
 * approval itself to a hot wallet that has not (docs/decisions/0039).
 */
export async function deployBatchPayer(rpcUrl: string, deployerKey: string, tokenAddress: string): Promise<string> {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1 });
  try {
    const deployer = new Wallet(deployerKey, provider);
    const factory = new ContractFactory(batchPayerArtifact.abi, batchPayerArtifact.bytecode, deployer);
    const contract = await factory.deploy(tokenAddress);
    await contract.deploymentTransaction()!.wait();
    const address = await contract.getAddress();
    const approval = await deployer.sendTransaction({ to: tokenAddress, data: pmeInterface.encodeFunctionData("approve", [address, MaxUint256]) });
    await approval.wait();
    return address;
  } finally {
    provider.destroy();
  }
}
