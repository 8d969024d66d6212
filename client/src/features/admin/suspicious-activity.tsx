import type { SuspiciousBurst, SuspiciousBurstKind } from "@shared/admin";
import {
  ADDRESS_BOOK_BURST,
  BOOK_COUNTED_SPIKE,
  DELETED_ACCOUNTS_COUNTED,
  SHARED_ADDRESS_ACCOUNTS,
  SUSPICIOUS_ACTIVITY_DAYS,
} from "@shared/suspicious-activity";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { AdminSection } from "@/features/admin/admin-section";
import { AdminTable, Cell, entryClassName, stackedBodyClassName } from "@/features/admin/admin-table";
import { Badge } from "@/features/admin/badge";
import { useAdminFormat } from "@/features/admin/use-admin-format";

/** The threshold each rule sentence quotes, from the same constants the server detects with. */
const RULE_THRESHOLDS: Record<SuspiciousBurstKind, number> = {
  address_book_burst: ADDRESS_BOOK_BURST.downloads,
  shared_address: SHARED_ADDRESS_ACCOUNTS.accounts,
  book_spike: BOOK_COUNTED_SPIKE.counted,
  deleted_accounts: DELETED_ACCOUNTS_COUNTED.counted,
};

function BurstRules() {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const headingId = useId();
  return (
    <div className="mb-5">
      <h3 id={headingId} className="font-semibold">
        {t("admin.suspicious.rulesHeading")}
      </h3>
      <ul aria-labelledby={headingId} className="mt-2 space-y-1 text-sm">
        {(Object.entries(RULE_THRESHOLDS) as Array<[SuspiciousBurstKind, number]>).map(([kind, threshold]) => (
          <li key={kind} className="flex flex-wrap items-baseline gap-2">
            <Badge tone="warning">{t(`admin.suspicious.kind.${kind}`)}</Badge>
            <span className="text-ink-muted">{t(`admin.suspicious.rule.${kind}`, { threshold: format.integer(threshold) })}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function BurstPeriod({ start, end }: { start: string; end: string }) {
  const format = useAdminFormat();
  const from = <time dateTime={start}>{format.dateTime(start)}</time>;
  if (start === end) return from;
  return (
    <>
      {from} – <time dateTime={end}>{format.dateTime(end)}</time>
    </>
  );
}

/** The address in full, or, once an account behind the burst was deleted, only a label of its keyed hash (docs/decisions/0049). */
function BurstAddress({ burst }: { burst: SuspiciousBurst }) {
  const { t } = useTranslation();
  if (burst.ipAddress) return <span className="font-mono text-xs break-all">{burst.ipAddress}</span>;
  if (burst.addressLabel) {
    return (
      <>
        <p className="font-mono text-xs break-all">{t("admin.suspicious.hiddenAddress", { label: burst.addressLabel })}</p>
        <p className="text-ink-muted text-xs">{t("admin.suspicious.hiddenAddressHint")}</p>
      </>
    );
  }
  return <span className="text-ink-muted">{t("admin.suspicious.anyAddress")}</span>;
}

function BurstRow({ burst }: { burst: SuspiciousBurst }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  return (
    <tr role="row" data-testid="suspicious-burst" data-kind={burst.kind} className={entryClassName}>
      <Cell>
        <Badge tone="warning">{t(`admin.suspicious.kind.${burst.kind}`)}</Badge>
      </Cell>
      <Cell label={t("admin.fields.book")}>
        {burst.book ? (
          <>
            <p className="font-medium break-words">{burst.book.title}</p>
            <p className="text-ink-muted">{format.id(burst.book.id)}</p>
          </>
        ) : (
          <span className="text-ink-muted">{t("admin.suspicious.anyBook")}</span>
        )}
      </Cell>
      <Cell label={t("admin.suspicious.address")}>
        <BurstAddress burst={burst} />
      </Cell>
      <Cell label={t("admin.fields.downloads")} className="tabular-nums">
        {format.integer(burst.downloads)}
      </Cell>
      <Cell label={t("admin.suspicious.counted")} className="tabular-nums">
        {format.integer(burst.counted)}
      </Cell>
      <Cell label={t("admin.suspicious.notCounted")} className="tabular-nums">
        {format.integer(burst.downloads - burst.counted)}
      </Cell>
      <Cell label={t("admin.suspicious.accounts")} className="tabular-nums">
        {format.integer(burst.accounts)}
      </Cell>
      <Cell label={t("admin.suspicious.period")} className="lg:min-w-48">
        <BurstPeriod start={burst.windowStart} end={burst.windowEnd} />
      </Cell>
    </tr>
  );
}

/** Download bursts that look like reward farming (docs/product.md#admin); the address is shown in full, to the admin only. */
export function SuspiciousActivity({ bursts }: { bursts: SuspiciousBurst[] }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const headingId = useId();
  const days = format.integer(SUSPICIOUS_ACTIVITY_DAYS);
  const columns = [
    { label: t("admin.suspicious.signal") },
    { label: t("admin.fields.book") },
    { label: t("admin.suspicious.address") },
    { label: t("admin.fields.downloads") },
    { label: t("admin.suspicious.counted") },
    { label: t("admin.suspicious.notCounted") },
    { label: t("admin.suspicious.accounts") },
    { label: t("admin.suspicious.period") },
  ];
  return (
    <AdminSection
      headingId={headingId}
      title={t("admin.suspicious.heading")}
      description={t("admin.suspicious.description", { days })}
      testId="suspicious-activity"
    >
      <BurstRules />
      {bursts.length === 0 ? (
        <p className="text-ink-muted">{t("admin.suspicious.empty", { days })}</p>
      ) : (
        <AdminTable labelledBy={headingId} columns={columns}>
          <tbody role="rowgroup" className={stackedBodyClassName}>
            {bursts.map((burst) => (
              <BurstRow key={`${burst.kind} ${burst.book?.id} ${burst.ipAddress ?? burst.addressLabel} ${burst.windowStart}`} burst={burst} />
            ))}
          </tbody>
        </AdminTable>
      )}
    </AdminSection>
  );
}
