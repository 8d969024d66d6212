import type { PaymentView } from "../../shared/wallet.ts";
import { authorizeAccountRead } from "../accounts/accounts-policy.ts";
import type { Queryable } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { listAuthorPayments } from "./payments-repository.ts";

/** An author's payments, newest first: theirs to see, and the admin's (docs/product.md#payouts). */
export async function readAuthorPayments(db: Queryable, caller: User, authorId: string, adminEmail: string | undefined): Promise<PaymentView[]> {
  authorizeAccountRead(caller, authorId, adminEmail, "Only the author and the admin can see these payments.");
  return listAuthorPayments(db, authorId);
}
