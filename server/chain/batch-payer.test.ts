import { Contract, Interface, JsonRpcProvider, MaxUint256, Transaction, type TransactionReceipt, Wallet, ZeroAddress, parseUnits, toQuantity } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test/helpers/free-port.ts";
import { BatchPayer, MAX_BATCH_PAYMENTS, batchGasLimit, batchPayerArtifact } from "./batch-payer.ts";
import { type LocalChain, startLocalChain } from "./local-chain.ts";
import type { Fees } from "./pme-chain.ts";
import { pmeArtifact } from "./pme-artifact.ts";

/** Hardhat's second default account: public knowledge, like the hot wallet's key. */
const OTHER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const batchInterface = new Interface(batchPayerArtifact.abi);
const pmeInterface = new Interface(pmeArtifact.abi);

let chain: LocalChain;
let provider: JsonRpcProvider;
let hotWallet: Wallet;
let payer: BatchPayer;
let token: Contract;
let fees: Fees;

beforeAll(async () => {
  chain = await startLocalChain(await freePort());
  provider = new JsonRpcProvider(chain.rpcUrl, chain.chainId, { staticNetwork: true, cacheTimeout: -1, batchStallTime: 0 });
  hotWallet = new Wallet(chain.payoutPrivateKey, provider);
  const signer = { address: hotWallet.address, signDigest: (digest: string) => Promise.resolve(hotWallet.signingKey.sign(digest)) };
  payer = new BatchPayer(provider, signer, { chainId: chain.chainId, tokenAddress: chain.tokenAddress, address: chain.batchPayerAddress });
  token = new Contract(chain.tokenAddress, pmeArtifact.abi, provider);
  const feeData = await provider.getFeeData();
  fees = { maxFeePerGas: feeData.maxFeePerGas!, maxPriorityFeePerGas: feeData.maxPriorityFeePerGas! };
}, 60_000);
afterAll(async () => {
  provider?.destroy();
  await chain?.stop();
});

const balanceOf = async (address: string) => (await token.getFunction("balanceOf")(address)) as bigint;
const freshRecipients = (count: number) => Array.from({ length: count }, () => Wallet.createRandom().address);

async function sendRaw(raw: string): Promise<TransactionReceipt> {
  const hash = (await provider.send("eth_sendRawTransaction", [raw])) as string;
  return (await provider.getTransactionReceipt(hash))!;
}

/**
 * A call of the contract as any account could make it, past the adapter's checks: signed by hand with
 * room for every payment, mined (a failing one with status 0, as a real node does); with the error
 * the same call gets beforehand, by name.
 */
async function callPay(sender: Wallet, recipients: string[], amounts: bigint[]) {
  const data = batchInterface.encodeFunctionData("pay", [recipients, amounts]);
  // This node answers a reverting call with the revert data itself (throwOnCallFailures: false), and
  // `pay` returns nothing: any data is a refusal.
  const returned = await provider.call({ from: sender.address, to: chain.batchPayerAddress, data });
  const refusal = returned === "0x" ? null : (batchInterface.parseError(returned) ?? pmeInterface.parseError(returned))?.name;
  const transaction = Transaction.from({
    type: 2,
    chainId: chain.chainId,
    nonce: await provider.getTransactionCount(sender.address, "pending"),
    to: chain.batchPayerAddress,
    data,
    value: 0n,
    gasLimit: batchGasLimit(recipients.length),
    ...fees,
  });
  transaction.signature = sender.signingKey.sign(transaction.unsignedHash);
  return { refusal, receipt: await sendRaw(transaction.serialized) };
}

describe("the hot wallet's approval", () => {
  it("is given by the local chain at deployment, for the maximum", async () => {
    expect(await payer.allowance()).toBe(MaxUint256);
  });

  it("is signed for the maximum at the nonce given, and read as of a block", async () => {
    const fresh = Wallet.createRandom().connect(provider);
    await provider.send("hardhat_setBalance", [fresh.address, toQuantity(10n ** 18n)]);
    const freshSigner = { address: fresh.address, signDigest: (digest: string) => Promise.resolve(fresh.signingKey.sign(digest)) };
    const freshPayer = new BatchPayer(provider, freshSigner, { chainId: chain.chainId, tokenAddress: chain.tokenAddress, address: chain.batchPayerAddress });
    expect(await freshPayer.allowance()).toBe(0n);
    const approval = await freshPayer.signApproval(0, fees);
    expect(Transaction.from(approval.raw)).toMatchObject({ nonce: 0, to: chain.tokenAddress, from: fresh.address });
    const receipt = await sendRaw(approval.raw);
    expect(receipt.hash).toBe(approval.hash);
    expect(await freshPayer.allowance()).toBe(MaxUint256);
    expect(await freshPayer.allowance(receipt.blockNumber - 1)).toBe(0n);
  });
});

describe("a batch", () => {
  it("pays each recipient exactly its amount in one transaction, one Transfer from the hot wallet each, and leaves the approval whole", async () => {
    const recipients = freshRecipients(25);
    const payments = recipients.map((to, index) => ({ to, amount: parseUnits(String(index + 1), 18) }));
    const before = await balanceOf(hotWallet.address);

    const signed = await payer.signBatch(payments, await provider.getTransactionCount(hotWallet.address, "pending"), fees);
    const receipt = await sendRaw(signed.raw);

    expect(receipt.hash).toBe(signed.hash);
    expect(receipt.status).toBe(1);
    expect(receipt.to).toBe(chain.batchPayerAddress);
    expect(await Promise.all(recipients.map(balanceOf))).toEqual(payments.map((payment) => payment.amount));
    const total = payments.reduce((sum, payment) => sum + payment.amount, 0n);
    expect(await balanceOf(hotWallet.address)).toBe(before - total);
    const transfers = payer.transfersOf(receipt);
    expect(transfers.map(({ to, amount }) => ({ to, amount }))).toEqual(payments);
    expect(new Set(transfers.map((transfer) => transfer.logIndex)).size).toBe(payments.length);
    // The receipt holds the Transfers and nothing else: a max allowance is not written down (no Approval log).
    expect(receipt.logs).toHaveLength(payments.length);
    expect(await payer.allowance()).toBe(MaxUint256);
  });

  it.each([
    { bad: "a zero address", refusal: "ERC20InvalidReceiver", entries: (to: string[]) => ({ recipients: [to[0]!, ZeroAddress, to[1]!], amounts: [1n, 1n, 1n] }) },
    { bad: "one amount fewer than recipients", refusal: "LengthMismatch", entries: (to: string[]) => ({ recipients: to, amounts: [1n] }) },
    {
      bad: "more than the hot wallet holds, in its last payment",
      refusal: "ERC20InsufficientBalance",
      entries: (to: string[], balance: bigint) => ({ recipients: to, amounts: [1n, balance] }),
    },
  ])("with $bad reverts whole and pays nobody", async ({ entries, refusal }) => {
    const to = freshRecipients(2);
    const before = await balanceOf(hotWallet.address);
    const { recipients, amounts } = entries(to, before);

    const sent = await callPay(hotWallet, recipients, amounts);

    expect(sent.refusal).toBe(refusal);
    expect(sent.receipt.status).toBe(0);
    expect(payer.transfersOf(sent.receipt)).toEqual([]);
    expect(await Promise.all(to.map(balanceOf))).toEqual([0n, 0n]);
    expect(await balanceOf(hotWallet.address)).toBe(before);
  });

  it("sent by an account that has not approved the contract pays nobody, though the hot wallet has", async () => {
    const other = new Wallet(OTHER_KEY, provider);
    // The other account holds PME of its own: only the missing allowance stands in its way.
    await (await token.connect(hotWallet).getFunction("transfer")(other.address, parseUnits("10", 18))).wait();
    const [hotBefore, otherBefore] = await Promise.all([balanceOf(hotWallet.address), balanceOf(other.address)]);
    const to = freshRecipients(2);

    const sent = await callPay(other, to, [1n, 1n]);

    expect(sent.refusal).toBe("ERC20InsufficientAllowance");
    expect(sent.receipt.status).toBe(0);
    expect(await Promise.all(to.map(balanceOf))).toEqual([0n, 0n]);
    expect(await balanceOf(hotWallet.address)).toBe(hotBefore);
    expect(await balanceOf(other.address)).toBe(otherBefore);
  });
});

describe("signBatch", () => {
  it("refuses, before it costs a nonce, a batch the contract could only revert: empty, too long, to no one, or of nothing", async () => {
    const [to] = freshRecipients(1);
    const one = { to: to!, amount: 1n };
    await expect(payer.signBatch([], 0, fees)).rejects.toThrow(RangeError);
    await expect(payer.signBatch(Array.from({ length: MAX_BATCH_PAYMENTS + 1 }, () => one), 0, fees)).rejects.toThrow(RangeError);
    await expect(payer.signBatch([one, { to: ZeroAddress, amount: 1n }], 0, fees)).rejects.toThrow(/Payment 1 of the batch/);
    await expect(payer.signBatch([one, { to: to!, amount: 0n }], 0, fees)).rejects.toThrow(/Payment 1 of the batch/);
    await expect(payer.signBatch([{ to: "0x1234", amount: 1n }], 0, fees)).rejects.toThrow(/invalid address/);
  });
});
