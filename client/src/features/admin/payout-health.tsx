import type { PayoutHealth, PayoutHealthState } from "@shared/admin";
import { shortAddress } from "@shared/wallet";
import { useTranslation } from "react-i18next";
import { Notice, type NoticeTone } from "@/features/admin/admin-section";
import { useAdminFormat } from "@/features/admin/use-admin-format";
import { CopyableValue } from "@/ui/copyable-value";

type PausedState = Exclude<PayoutHealthState, "sending">;

/** Short of POL or PME, the admin has to act: red. A lagging chain or high fees pass on their own: amber. */
const pausedTone: Record<PausedState, NoticeTone> = {
  "low-gas": "danger",
  "low-pme": "danger",
  "finality-lag": "warning",
  "fee-ceiling": "warning",
};

/** What is wrong and what ends it, in the numbers the sender saw (docs/product.md#hot-wallet-health). */
function usePausedSentence(health: PayoutHealth & { state: PausedState }): string {
  const { t } = useTranslation();
  const format = useAdminFormat();
  switch (health.state) {
    case "low-gas":
      return t("admin.health.paused.low-gas", { balance: format.decimal(health.gasBalance), minimum: format.decimal(health.gasMinimum) });
    case "low-pme":
      return t("admin.health.paused.low-pme", { balance: format.decimal(health.tokenBalance), minimum: format.decimal(health.tokenMinimum) });
    case "finality-lag":
      return t("admin.health.paused.finality-lag", {
        lag: format.duration(health.finality.lagSeconds),
        count: health.finality.lagBlocks,
        blocks: format.integer(health.finality.lagBlocks),
        max: format.duration(health.finality.maxLagSeconds),
      });
    case "fee-ceiling":
      return health.feeNeededGwei === null
        ? t("admin.health.paused.fee-ceiling-unknown", { ceiling: format.decimal(health.maxFeeGwei) })
        : t("admin.health.paused.fee-ceiling", { needed: format.decimal(health.feeNeededGwei), ceiling: format.decimal(health.maxFeeGwei) });
  }
}

function PausedBanner({ health }: { health: PayoutHealth & { state: PausedState } }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const sentence = usePausedSentence(health);
  return (
    <div data-testid="payout-health" data-state={health.state}>
      <Notice tone={pausedTone[health.state]} title={t("admin.health.pausedTitle")} role="alert">
        <p data-testid="payout-health-sentence" className="max-w-prose">
          {sentence}
        </p>
        <p className="mt-3 font-semibold">{t("admin.health.hotWallet")}</p>
        <CopyableValue
          value={health.hotWallet}
          copyLabel={t("admin.health.copyAddress")}
          copiedMessage={t("admin.health.copied")}
          copyErrorMessage={t("admin.health.copyError")}
          testId="hot-wallet-address"
        />
        <p className="mt-3">
          {t("admin.health.pausedSince", { since: format.dateTime(health.since), checked: format.dateTime(health.checkedAt) })}
        </p>
      </Notice>
    </div>
  );
}

/** All is well, or not known yet: one quiet line rather than a box that would call for attention. */
function CalmLine({ state, dotClassName, title, details }: { state: string; dotClassName: string; title: string; details: string[] }) {
  return (
    <div
      role="status"
      data-testid="payout-health"
      data-state={state}
      className="flex flex-wrap items-baseline gap-x-4 gap-y-1 rounded-xl border border-line bg-surface px-4 py-3 text-sm shadow-sm"
    >
      <span className="flex items-center gap-2 font-semibold">
        <span aria-hidden="true" className={`size-2.5 shrink-0 rounded-full ${dotClassName}`} />
        {title}
      </span>
      {/* Separate items rather than one "·"-joined line, which a phone would break before a dot. */}
      <ul role="list" className="flex flex-wrap gap-x-4 gap-y-1 text-ink-muted">
        {details.map((detail) => (
          <li key={detail}>{detail}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The top of the admin panel: whether payouts go out. Paused, it says why, the numbers behind it, the
 * address to fund and since when; sending, a quiet line with the balances; with no report from the
 * sender yet, that.
 */
export function PayoutHealthBanner({ health }: { health: PayoutHealth | null }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  if (health === null) {
    return <CalmLine state="unknown" dotClassName="bg-line-strong" title={t("admin.health.unknownTitle")} details={[t("admin.health.unknownDetail")]} />;
  }
  if (health.state !== "sending") return <PausedBanner health={{ ...health, state: health.state }} />;
  return (
    <CalmLine
      state="sending"
      dotClassName="bg-emerald-600"
      title={t("admin.health.sendingTitle")}
      details={[
        t("admin.health.sending.gas", { balance: format.balance(health.gasBalance) }),
        t("admin.health.sending.pme", { balance: format.balance(health.tokenBalance) }),
        t("admin.health.sending.wallet", { address: shortAddress(health.hotWallet) }),
        t("admin.health.sending.checked", { checked: format.dateTime(health.checkedAt) }),
      ]}
    />
  );
}
