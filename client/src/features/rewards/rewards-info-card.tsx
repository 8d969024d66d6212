import type { CurrentUser } from "@shared/auth";
import { MILESTONE_STEP } from "@shared/rewards";
import { type PublicConfig, shortAddress } from "@shared/wallet";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { Panel } from "@/ui/panel";
import { AddressLine } from "@/features/rewards/address-line";
import { CopyableValue } from "@/ui/copyable-value";
import { WarningIcon } from "@/ui/icons";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { AddTokenButton, chainNameOf, METAMASK_DOWNLOAD_URL, useWallet, WalletButton } from "@/features/wallet";
import { useNumberFormat } from "@/lib/use-number-format";
import { useOpenPromotionEnd } from "@/lib/public-config";

/** Where the payouts go: the address the server has, and a nudge when the wallet shows another one. */
function PayoutAddress({ savedAddress, network }: { savedAddress: string | null; network: string }) {
  const { t } = useTranslation();
  const wallet = useWallet();
  // An account adopted on load is not saved (see useWallet): the author decides whether it should be paid.
  const unsavedAccount =
    wallet.status === "connected" && wallet.account && wallet.account.toLowerCase() !== savedAddress?.toLowerCase() ? wallet.account : null;
  return (
    <div className="rounded-lg border border-line bg-paper p-4 text-sm">
      {savedAddress ? (
        <AddressLine text={t("rewards.payout.saved")} address={savedAddress} />
      ) : (
        <p className="text-ink-muted">{t("rewards.payout.none")}</p>
      )}
      {unsavedAccount && (
        <div className="mt-3 border-t border-line pt-3">
          <p>{t("rewards.payout.connectedNotSaved", { address: shortAddress(unsavedAccount) })}</p>
          <button type="button" onClick={() => void wallet.saveConnectedAccount()} className={buttonClassName("secondary", "mt-2")}>
            {t("rewards.payout.useConnected")}
          </button>
        </div>
      )}
      {wallet.isWrongChain && (
        <p className="mt-3 flex items-start gap-2 border-t border-line pt-3 text-amber-950">
          <WarningIcon className="mt-0.5 size-4 shrink-0 text-amber-700" />
          <span>
            {t("rewards.payout.wrongNetwork")}{" "}
            <button type="button" onClick={() => void wallet.switchChain()} className={textLinkClassName}>
              {t("rewards.payout.switchNetwork", { network })}
            </button>
          </span>
        </p>
      )}
    </div>
  );
}

interface RewardsInfoCardProps {
  user: CurrentUser;
  token: PublicConfig["token"] | undefined;
}

/** How rewards are earned and how to receive them: MetaMask, the network, the PME contract. */
export function RewardsInfoCard({ user, token }: RewardsInfoCardProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const promotionEnd = useOpenPromotionEnd();
  const network = token ? chainNameOf(token) : t("rewards.defaultNetwork");
  return (
    <Panel title={t("rewards.info.title")}>
      <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm leading-relaxed text-ink-muted">
        <li>{t("rewards.info.milestones", { step: MILESTONE_STEP, twice: 2 * MILESTONE_STEP })}</li>
        {promotionEnd && <li>{t("rewards.info.promotion", { date: format.longDate(promotionEnd) })}</li>}
        <li>{t("rewards.info.delay")}</li>
      </ul>
      <p className="mt-3 text-sm">
        <Link href="/help#counting" className={textLinkClassName}>
          {t("rewards.info.helpLink")}
        </Link>
      </p>

      <h3 className="mt-6 text-lg font-semibold">{t("rewards.receive.title")}</h3>
      <ol className="mt-3 list-decimal space-y-1.5 pl-5 text-sm leading-relaxed text-ink-muted">
        <li>
          {t("rewards.receive.install")}{" "}
          <a href={METAMASK_DOWNLOAD_URL} target="_blank" rel="noopener noreferrer" className={textLinkClassName}>
            metamask.io
            <span className="sr-only"> {t("common.opensInNewTab")}</span>
          </a>
        </li>
        <li>{t("rewards.receive.connect", { network })}</li>
        <li>{t("rewards.receive.addToken")}</li>
      </ol>
      <div className="mt-4 flex flex-wrap gap-2">
        <WalletButton testId="rewards-wallet-button" />
        <AddTokenButton />
      </div>
      <div className="mt-4">
        <PayoutAddress savedAddress={user.walletAddress} network={network} />
      </div>

      {token && (
        <div className="mt-6">
          <h3 className="text-sm font-semibold">{t("rewards.contract.title", { network })}</h3>
          <CopyableValue
            value={token.address}
            copyLabel={t("rewards.contract.copy")}
            copiedMessage={t("rewards.contract.copied")}
            copyErrorMessage={t("rewards.contract.copyError")}
            testId="token-address"
          />
        </div>
      )}
    </Panel>
  );
}
