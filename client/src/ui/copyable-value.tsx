import { useTranslation } from "react-i18next";
import { CopyIcon } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { toast } from "@/lib/toast";

interface CopyableValueProps {
  value: string;
  /** The button's name: it shows only an icon. */
  copyLabel: string;
  copiedMessage: string;
  /** What to do when the browser refuses the clipboard. */
  copyErrorMessage: string;
  testId: string;
  /** A value to type by hand (a key): larger, and never broken inside a group. */
  large?: boolean;
}

/** A value to paste elsewhere (an address, a key), shown whole, with a button that copies it. */
export function CopyableValue({ value, copyLabel, copiedMessage, copyErrorMessage, testId, large = false }: CopyableValueProps) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: copiedMessage });
    } catch {
      toast({ variant: "destructive", title: t("common.error"), description: copyErrorMessage });
    }
  };
  return (
    <div className="mt-2 flex items-stretch gap-2">
      <code
        data-testid={testId}
        translate="no"
        className={`min-w-0 flex-1 rounded-md border border-line bg-paper px-3 py-2 font-mono ${large ? "overflow-x-auto text-base tracking-wide whitespace-nowrap sm:text-xl sm:tracking-wider" : "text-sm break-all"}`}
      >
        {value}
      </code>
      <button type="button" onClick={() => void copy()} aria-label={copyLabel} title={copyLabel} className={buttonClassName("secondary")}>
        <CopyIcon />
      </button>
    </div>
  );
}
