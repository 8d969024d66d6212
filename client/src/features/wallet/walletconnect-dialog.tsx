import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "@/ui/copy-button";
import { ModalDialog } from "@/ui/modal-dialog";
import { buttonClassName } from "@/ui/styles";
import type { Pairing } from "@/features/wallet/walletconnect-state";

/**
 * The pairing to scan with a phone wallet app (docs/product.md#wallet): its QR code, and its link to
 * copy for a wallet on the same computer. Closing it cancels the connection; the phone's approval closes it.
 */
export default function WalletConnectDialog({ pairing }: { pairing: Pairing }) {
  const { t } = useTranslation();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      title={t("walletConnect.title")}
      description={t("walletConnect.description")}
      onDismiss={pairing.cancel}
      initialFocus={cancelRef}
      widthClassName="max-w-sm"
      testId="walletconnect-dialog"
    >
      <img src={pairing.qrCode} alt={t("walletConnect.qrCodeAlt")} width={256} height={256} className="mx-auto mt-4 size-64 rounded-md bg-white" />
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button ref={cancelRef} type="button" onClick={pairing.cancel} className={buttonClassName("secondary")}>
          {t("common.cancel")}
        </button>
        <CopyButton
          text={pairing.uri}
          label={t("walletConnect.copy")}
          copiedLabel={t("walletConnect.copied")}
          copyErrorMessage={t("walletConnect.copyError")}
          testId="walletconnect-copy"
        />
      </div>
    </ModalDialog>
  );
}
