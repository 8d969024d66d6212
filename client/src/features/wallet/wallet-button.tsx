import { shortAddress } from "@shared/wallet";
import { useTranslation } from "react-i18next";
import { Spinner, WalletIcon, WarningIcon } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { usePublicConfig } from "@/lib/public-config";
import { METAMASK_DOWNLOAD_URL, toastWalletRequired, useWallet } from "@/features/wallet/use-wallet";
import { chainNameOf } from "@/features/wallet/ethereum";
import { metaMaskAppLink, isPhoneWithoutWallet } from "@/features/wallet/wallet-links";
import { type DiscoveredWallet, WALLETCONNECT_RDNS } from "@/features/wallet/wallet-discovery";

interface WalletButtonProps {
  testId?: string;
}

/** A wallet's own icon, as it announced it; the generic one for a wallet found the old way. */
function WalletMark({ wallet }: { wallet: DiscoveredWallet | undefined }) {
  return wallet?.info.icon ? <img src={wallet.info.icon} alt="" width={20} height={20} className="size-5 rounded" /> : <WalletIcon />;
}

/** Without a wallet: on a phone, Plume opened in MetaMask's own browser; elsewhere, where to get one. */
function NoWalletLink({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const onPhone = isPhoneWithoutWallet();
  return (
    <a
      href={onPhone ? metaMaskAppLink(window.location) : METAMASK_DOWNLOAD_URL}
      target={onPhone ? undefined : "_blank"}
      rel="noopener noreferrer"
      data-testid={testId}
      data-status="unavailable"
      onClick={onPhone ? undefined : toastWalletRequired}
      className={buttonClassName("secondary")}
    >
      <WalletIcon />
      {t(onPhone ? "wallet.openInMetaMask" : "wallet.install")}
      {!onPhone && <span className="sr-only"> {t("common.opensInNewTab")}</span>}
    </a>
  );
}

/** Every wallet state of docs/product.md#wallet in one control: install or open in MetaMask, connect (choosing among wallets), connecting, connected, wrong network, failed. */
export function WalletButton({ testId = "wallet-button" }: WalletButtonProps) {
  const { t } = useTranslation();
  const wallet = useWallet();
  const { data: config } = usePublicConfig();

  if (wallet.status === "unavailable") return <NoWalletLink testId={testId} />;

  if (wallet.status === "connecting") {
    return (
      <button
        type="button"
        disabled
        aria-busy="true"
        data-testid={testId}
        data-status="connecting"
        className={buttonClassName("secondary")}
      >
        <Spinner />
        {t("wallet.connecting")}
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
  if (wallet.wallets.length > 1) {
    // Several wallets share the browser: the author picks one, named and drawn as each announced itself.
    return (
      <div role="group" aria-label={t("wallet.choose")} data-testid={testId} data-status={wallet.status} className="flex flex-wrap gap-2">
        {wallet.wallets.map((each) => (
          <button key={each.info.uuid} type="button" onClick={() => void wallet.connect(each)} className={buttonClassName(failed ? "dangerOutline" : "secondary")}>
            <WalletMark wallet={each} />
            {t("wallet.connectNamed", { name: each.info.name || t("wallet.browserWallet") })}
          </button>
        ))}
      </div>
    );
  }
  // WalletConnect alone is named: "Connect wallet" would promise a wallet in this browser.
  const isWalletConnect = wallet.activeWallet?.info.rdns === WALLETCONNECT_RDNS;
  const text = failed ? t("wallet.retry") : isWalletConnect ? t("wallet.connectNamed", { name: wallet.activeWallet?.info.name }) : t("wallet.connect");
  return (
    <button
      type="button"
      data-testid={testId}
      data-status={wallet.status}
      onClick={() => void wallet.connect()}
      className={buttonClassName(failed ? "dangerOutline" : "secondary")}
    >
      {failed ? <WarningIcon /> : <WalletMark wallet={wallet.activeWallet} />}
      {text}
    </button>
  );
}

/** Asks the wallet to list PME among its tokens, so the author sees the rewards arrive. */
export function AddTokenButton() {
  const { t } = useTranslation();
  const wallet = useWallet();
  // Without a connected wallet there is nothing to add the token to (docs/product.md#wallet).
  if (wallet.status !== "connected") return null;
  return (
    <button type="button" data-testid="add-token-button" onClick={() => void wallet.addToken()} className={buttonClassName("secondary")}>
      <span aria-hidden="true" className="flex size-5 items-center justify-center rounded-full bg-accent text-[0.6rem] font-bold text-white">
        P
      </span>
      {t("wallet.addToken")}
    </button>
  );
}
