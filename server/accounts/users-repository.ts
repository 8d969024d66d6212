import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { type NewUser, type User, users } from "../db/schema.ts";
import { valuesList } from "../db/values-list.ts";

/** The account, unless it was deleted: what signs in, holds a session or shows an author page. */
export async function findOpenAccount(db: Queryable, id: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(and(eq(users.id, id), isNull(users.deletedAt)));
  return user;
}

/**
 * Username, or an e-mail address the account proved, case-insensitively. An unproven address is only
 * a claim, which several accounts may hold, one of them perhaps typed by someone else: it names no
 * account (docs/decisions/0054). A username never contains "@", so at most one account matches.
 */
export async function findUserByIdentifier(db: Queryable, identifier: string): Promise<User | undefined> {
  const lowered = identifier.toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.username}) = ${lowered}`, sql`lower(${users.email}) = ${lowered} and ${users.emailVerifiedAt} is not null`))
    .limit(1);
  return user;
}

/**
 * Locks the account's row until the transaction ends, and answers it unless it was deleted. Serialises
 * one author's uploads, so "first book" is decided once even when two arrive together, and an upload
 * against the deletion of its account: whichever comes second sees the other.
 */
export async function lockOpenAccount(tx: Queryable, id: string): Promise<User | undefined> {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for("update");
  return user && !user.deletedAt ? user : undefined;
}

export async function insertUser(db: Queryable, values: NewUser): Promise<User> {
  const [user] = await db.insert(users).values(values).returning();
  return user!;
}

export async function recordSignIn(db: Queryable, id: string, at: Date): Promise<void> {
  await db.update(users).set({ lastSignInAt: at }).where(eq(users.id, id));
}

/** A counted download of one of the author's books (docs/product.md#counting-downloads). */
export async function incrementTotalDownloads(tx: Queryable, authorId: string): Promise<void> {
  await tx
    .update(users)
    .set({ totalDownloads: sql`${users.totalDownloads} + 1` })
    .where(eq(users.id, authorId));
}

/** Completed payments raise their authors' earnings, each by what was completed for them. */
export async function addEarnings(tx: Queryable, completed: Array<{ authorId: string; amount: string }>): Promise<void> {
  // Summed per author first: an UPDATE … FROM applies one joined row per author, however many match.
  const paid = valuesList("paid", [["author_id", "uuid"], ["amount", "numeric"]], completed.map((row) => [row.authorId, row.amount]));
  await tx
    .update(users)
    .set({ totalEarnings: sql`${users.totalEarnings} + earned.amount` })
    .from(sql`(select author_id, sum(amount) as amount from ${paid} group by author_id) as earned`)
    .where(sql`${users.id} = earned.author_id`);
}

/** The address the author's payments go to, already checked (wallet-service.ts). */
/**
 * Serialises the attempts to attach one address until the transaction ends, whatever its case: the
 * check that no other account holds it and the write then cannot interleave (docs/product.md#wallet).
 */
export async function lockWalletAddress(tx: Queryable, walletAddress: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wallet:${walletAddress.toLowerCase()}`}))`);
}

/** Whether another account than `exceptUserId` holds the address, compared without case. */
export async function isWalletHeldByAnother(db: Queryable, walletAddress: string, exceptUserId: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.walletAddress}) = ${walletAddress.toLowerCase()} and ${users.id} <> ${exceptUserId}`)
    .limit(1);
  return rows.length > 0;
}

export async function setWalletAddress(db: Queryable, id: string, walletAddress: string): Promise<User> {
  const [updated] = await db.update(users).set({ walletAddress }).where(eq(users.id, id)).returning();
  return updated!;
}

/** The account whose proven (verified) e-mail is this address, case-insensitively. */
export async function findUserByVerifiedEmail(db: Queryable, email: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()} and ${users.emailVerifiedAt} is not null`)
    .limit(1);
  return user;
}

export async function setPasswordHash(db: Queryable, id: string, password: string): Promise<void> {
  await db.update(users).set({ password }).where(eq(users.id, id));
}

/**
 * Records that the account proved `email`, if that is still its address: the check and the write are
 * one statement, so an address changed meanwhile is never marked proven. A second proof keeps the first date.
 */
export async function setEmailVerified(tx: Queryable, id: string, email: string, at: Date): Promise<User | undefined> {
  const [updated] = await tx
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(users.id, id), sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .returning();
  return updated;
}

/** A new address is not proven yet: admin rights and password resets wait for its link. */
export async function setEmailUnverified(tx: Queryable, id: string, email: string): Promise<User> {
  const [updated] = await tx.update(users).set({ email, emailVerifiedAt: null }).where(eq(users.id, id)).returning();
  return updated!;
}

/**
 * Serialises the proofs of one address, whatever its case, until the transaction ends: the check that
 * no other account proved it, the proof and the dropping of the other claims cannot interleave.
 */
export async function lockEmailAddress(tx: Queryable, email: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`email:${email.toLowerCase()}`}))`);
}

/**
 * The other accounts' unproven claims on an address just proven are dropped: they keep no e-mail and
 * may add another (docs/decisions/0054). Answers the accounts that lost it.
 */
export async function dropOtherClaims(tx: Queryable, provenBy: string, email: string): Promise<string[]> {
  const dropped = await tx
    .update(users)
    .set({ email: null })
    .where(sql`lower(${users.email}) = ${email.toLowerCase()} and ${users.emailVerifiedAt} is null and ${users.id} <> ${provenBy}`)
    .returning({ id: users.id });
  return dropped.map((row) => row.id);
}

/** The language the account's mail is written in: the interface language it last chose. */
export async function setUserLanguage(db: Queryable, id: string, language: string): Promise<void> {
  await db.update(users).set({ language }).where(eq(users.id, id));
}

/** The names and username the account shows (docs/product.md#settings); the unique index decides a taken username. */
export async function setProfile(db: Queryable, id: string, profile: Pick<User, "firstName" | "lastName" | "username">): Promise<User> {
  const [updated] = await db.update(users).set(profile).where(eq(users.id, id)).returning();
  return updated!;
}

export async function setShowExplicit(db: Queryable, id: string, show: boolean): Promise<User> {
  const [updated] = await db.update(users).set({ showExplicit: show }).where(eq(users.id, id)).returning();
  return updated!;
}

/** Whether the reader's shelves show at /readers/{username} (docs/product.md#shelves). */
export async function setShelvesPublic(db: Queryable, id: string, shelvesPublic: boolean): Promise<User> {
  const [updated] = await db.update(users).set({ shelvesPublic }).where(eq(users.id, id)).returning();
  return updated!;
}

export async function setEReaderEmail(db: Queryable, id: string, eReaderEmail: string | null): Promise<User> {
  const [updated] = await db.update(users).set({ eReaderEmail }).where(eq(users.id, id)).returning();
  return updated!;
}

export async function setNotifyPaymentCompleted(db: Queryable, id: string, notify: boolean): Promise<User> {
  const [updated] = await db.update(users).set({ notifyPaymentCompleted: notify }).where(eq(users.id, id)).returning();
  return updated!;
}

/**
 * What is left of a deleted account (docs/product.md#settings): an id that payments and downloads
 * still point at, a username nobody can type at sign-in, no password that any input matches, and
 * no name or e-mail (its e-reader's included). The wallet stays only while a payment to it is owed.
 */
export async function closeAccount(tx: Queryable, id: string, keptWallet: string | null, at: Date): Promise<void> {
  await tx
    .update(users)
    .set({
      username: `deleted-${id}`,
      email: null,
      emailVerifiedAt: null,
      firstName: null,
      lastName: null,
      profileImageUrl: null,
      password: "closed",
      walletAddress: keptWallet,
      notifyPaymentCompleted: false,
      digestFrequency: "off",
      eReaderEmail: null,
      lastSignInAt: null,
      deletedAt: at,
    })
    .where(eq(users.id, id));
}
