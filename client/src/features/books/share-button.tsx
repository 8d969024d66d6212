import { useTranslation } from "react-i18next";
import { CopyIcon } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { toast } from "@/lib/toast";

interface ShareButtonProps {
  /** The absolute address to share. */
  url: string;
  title: string;
  /** A line to go with the link in the share sheet. */
  text: string;
  className?: string;
}

function ShareIcon({ className = "size-4" }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
      <path d="M10 12.5V3M6.5 6.5 10 3l3.5 3.5M5 9.5H4.5A1.5 1.5 0 0 0 3 11v4.5A1.5 1.5 0 0 0 4.5 17h11a1.5 1.5 0 0 0 1.5-1.5V11a1.5 1.5 0 0 0-1.5-1.5H15" />
    </svg>
  );
}

const canUseShareSheet = () => typeof navigator.share === "function";

/**
 * Shares a page: the phone's share sheet where the browser has one (navigator.share), else the link
 * copied to the clipboard with a toast saying so. Closing the share sheet is not a failure.
 */
export function ShareButton({ url, title, text, className = "" }: ShareButtonProps) {
  const { t } = useTranslation();
  const hasShareSheet = canUseShareSheet();

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: t("share.copied"), description: t("share.copiedDescription") });
    } catch {
      toast({ variant: "destructive", title: t("share.copyFailed"), description: t("share.copyFailedDescription") });
    }
  };

  const share = async () => {
    if (!hasShareSheet) return copyLink();
    try {
      await navigator.share({ url, title, text });
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return;
      await copyLink();
    }
  };

  return (
    <button type="button" data-testid="share-button" onClick={() => void share()} className={buttonClassName("secondary", className)}>
      {hasShareSheet ? <ShareIcon /> : <CopyIcon />}
      {t(hasShareSheet ? "share.button" : "share.copyLink")}
    </button>
  );
}
