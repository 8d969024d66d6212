import type { Db } from "../db/client.ts";
import { composePaymentMail } from "../mail/mail-texts.ts";
import type { Mailer } from "../mail/mailer.ts";
import { type PaymentNotice, listPaymentNotices } from "./payments-repository.ts";

export interface PaymentNoticeMailing {
  mailer: Mailer;
  /** Where the links in the mail point (server/http/site-origin.ts). */
  origin: string;
  productName: string;
  /** The chain's block explorer, when it has one: the mail then links each transaction. */
  explorerUrl: string | null;
}

/**
 * Mails each author whose payments just completed (docs/product.md#settings): one message per
 * author, at most once. It is called after the completion has committed and is never retried: a
 * crash or a mail server that refuses loses the notice, which the dashboard's payments list makes
 * up for, where retrying could mail the same payment twice.
 */
export async function mailPaymentNotices(db: Db, mailing: PaymentNoticeMailing, paymentIds: number[]): Promise<void> {
  const byAuthor = new Map<string, PaymentNotice[]>();
  for (const notice of await listPaymentNotices(db, paymentIds)) {
    byAuthor.set(notice.authorId, [...(byAuthor.get(notice.authorId) ?? []), notice]);
  }
  const transactionOf = (hash: string | null) => (hash && mailing.explorerUrl ? `${mailing.explorerUrl.replace(/\/$/, "")}/tx/${hash}` : (hash ?? ""));
  await Promise.all(
    [...byAuthor.values()].map((notices) => {
      const first = notices[0]!;
      return mailing.mailer.send(
        composePaymentMail({
          to: first.email,
          language: first.language,
          values: { productName: mailing.productName, name: first.name, wallet: first.wallet ?? "" },
          payments: notices.map((notice) => ({
            kind: notice.kind,
            amount: notice.amount,
            downloads: notice.kind === "milestone" ? notice.downloadThreshold : null,
            bookTitle: notice.bookTitle ?? "",
            transaction: transactionOf(notice.transactionHash),
          })),
          link: `${mailing.origin}/dashboard`,
          settingsLink: `${mailing.origin}/settings`,
        }),
      );
    }),
  );
}
