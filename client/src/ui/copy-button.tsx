import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyIcon } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { toast } from "@/lib/toast";

interface CopyButtonProps {
  text: string;
  label: string;
  /** The label once copied. */
  copiedLabel: string;
  /** What to do when the browser refuses the clipboard. */
  copyErrorMessage: string;
  testId?: string;
}

/** A button that copies `text` and says so on itself; a refused clipboard is a toast saying what to do. */
export function CopyButton({ text, label, copiedLabel, copyErrorMessage, testId }: CopyButtonProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast({ variant: "destructive", title: t("common.error"), description: copyErrorMessage });
    }
  };
  return (
    <button type="button" data-testid={testId} onClick={() => void copy()} className={buttonClassName("secondary")}>
      <CopyIcon />
      {copied ? copiedLabel : label}
    </button>
  );
}
