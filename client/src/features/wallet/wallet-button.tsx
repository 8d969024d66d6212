import { shortAddress } from "@shared/wallet";
import { useTranslation } from "react-i18next";
import { Spinner, WalletIcon, WarningIcon } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { usePublicConfig } from "@/lib/public-config";
import { METAMASK_DOWNLOAD_URL, toastWalletRequired, useWallet } from "@/features/wallet/use-wallet";
import { chainNameOf } from "@/features/wallet/ethereum";

interface WalletButtonProps {
  /** The navigation's button is "wallet-button"; one repeated inside a card needs its own id. */
  testId?: string;
  /** On phones only the icon shows (the label stays for screen readers and as a tooltip), so the bar keeps to two lines. */
  compact?: boolean;
}

/** Every wallet state of docs/product.md#wallet in one control: install, connect, connecting, connected, wrong network, failed. */
export function WalletButton({ testId = "wallet-button", compact = false }: WalletButtonProps) {
  const { t } = useTranslation();
  const wallet = useWallet();
  const { data: config } = usePublicConfig();
  const label = (text: string) => (compact ? <span className="sr-only sm:not-sr-only">{text}</span> : text);
  const tooltip = (text: string) => (compact ? text : undefined);

  if (wallet.status === "unavailable") {
    return (
      <a
        href={METAMASK_DOWNLOAD_URL}
        target="_blank"
        rel="noopener noreferrer"
        data-testid={testId}
        data-status="unavailable"
        onClick={toastWalletRequired}
        title={tooltip(t("wallet.install"))}
        className={buttonClassName("secondary")}
      >
        <WalletIcon />
        {label(t("wallet.install"))}
        <span className="sr-only"> {t("common.opensInNewTab")}</span>
      </a>
    );
  }

  if (wallet.status === "connecting") {
    return (
      <button
        type="button"
        disabled
        aria-busy="true"
        data-testid={testId}
        data-status="connecting"
        title={tooltip(t("wallet.connecting"))}
        className={buttonClassName("secondary")}
      >
        <Spinner />
        {label(t("wallet.connecting"))}
      </button>
    );
  }

  if (wallet.status === "connected" && wallet.account) {
    const address = shortAddress(wallet.account);
    if (wallet.isWrongChain) {
      const chain = config ? chainNameOf(config.token) : "";
      return (
        <button
          type="button"
          data-testid={testId}
          data-status="wrong-chain"
          title={t("wallet.wrongNetworkHint", { chain })}
          onClick={() => void wallet.switchChain()}
          className={buttonClassName("warning")}
        >
          <WarningIcon className="size-4 text-amber-700" />
          <span className="font-mono">{address}</span>
          <span className="sr-only">: {t("wallet.wrongNetworkHint", { chain })}</span>
        </button>
      );
    }
    return (
      <button
        type="button"
        data-testid={testId}
        data-status="connected"
        title={t("wallet.connectedHint")}
        onClick={wallet.disconnect}
        className={buttonClassName("secondary")}
      >
        <span aria-hidden="true" className="size-2.5 rounded-full bg-emerald-600" />
        <span className="font-mono">{address}</span>
        <span className="sr-only">: {t("wallet.connectedHint")}</span>
      </button>
    );
  }

  const failed = wallet.status === "error";
  const text = t(failed ? "wallet.retry" : "wallet.connect");
  return (
    <button
      type="button"
      data-testid={testId}
      data-status={wallet.status}
      onClick={() => void wallet.connect()}
      title={tooltip(text)}
      className={buttonClassName(failed ? "dangerOutline" : "secondary")}
    >
      {failed ? <WarningIcon /> : <WalletIcon />}
      {label(text)}
    </button>
  );
}

/** Asks the wallet to list PME among its tokens, so the author sees the rewards arrive. */
export function AddTokenButton() {
  const { t } = useTranslation();
  const wallet = useWallet();
  return (
    <button type="button" data-testid="add-token-button" onClick={() => void wallet.addToken()} className={buttonClassName("secondary")}>
      <span aria-hidden="true" className="flex size-5 items-center justify-center rounded-full bg-accent text-[0.6rem] font-bold text-white">
        P
      </span>
      {t("wallet.addToken")}
    </button>
  );
}
