import { type Signature, SigningKey, computeAddress } from "ethers";

/**
 * Who signs the hot wallet's transactions. The payout worker hands over the digest of a transaction
 * it has built and stored nothing of yet, and gets the signature back: a key in memory by default,
 * a KMS or an HSM behind the same two members (docs/decisions/0038). A relayer that broadcasts on
 * its own would break the rule that a transaction is stored before it is sent, so it cannot sit here.
 */
export interface PayoutSigner {
  /** The hot wallet's checksummed address: the sender lease, nonces and balances are its. */
  readonly address: string;
  /** Signs a transaction's unsigned hash (secp256k1) with the key of `address`; may take a network round trip. */
  signDigest(digest: string): Promise<Signature>;
}

/** A transaction the signer has signed: what is stored before it is sent, and its hash to follow it by. */
export interface SignedTransfer {
  raw: string;
  hash: string;
}

/** The default signer: PAYOUT_PRIVATE_KEY, held in this process. */
export class LocalKeySigner implements PayoutSigner {
  readonly address: string;
  private readonly key: SigningKey;

  constructor(privateKey: string) {
    this.key = new SigningKey(privateKey);
    this.address = computeAddress(this.key.publicKey);
  }

  signDigest(digest: string): Promise<Signature> {
    return Promise.resolve(this.key.sign(digest));
  }
}
