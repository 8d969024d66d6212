import { useEffect, useId, useImperativeHandle, useRef, useState, type Ref } from "react";
import { ErrorCode, useDropzone, type FileRejection } from "react-dropzone";
import { useTranslation } from "react-i18next";
import { buttonClassName } from "@/ui/styles";
import { FileSizeText } from "@/features/books/file-size-text";
import { UPLOAD_RULES, toMegabytes, type UploadKind, type UploadRules } from "@/features/books/upload-kinds";
import { useImagePreview } from "@/features/books/use-image-preview";
import { decodesAsImage } from "@/features/books/decode-image";

/** What a form needs to move focus onto the zone, e.g. when the server refused its file. */
export interface DropzoneHandle {
  focus: () => void;
}

interface DropzoneProps {
  kind: UploadKind;
  label: string;
  file: File | null;
  /** Called with the newly chosen file, or with null when it is removed or a choice is refused. */
  onChange: (file: File | null) => void;
  /** Translation key of an error from the form or the server about this file. */
  errorKey?: string;
  disabled?: boolean;
  optional?: boolean;
  testId: string;
  ref?: Ref<DropzoneHandle>;
}

/** Only the first refused file's first reason is shown (docs/product.md#books). */
function rejectionMessageKey([firstRejection]: FileRejection[], { texts }: UploadRules): string {
  switch (firstRejection?.errors[0]?.code) {
    case ErrorCode.FileTooLarge:
      return texts.tooLarge;
    case ErrorCode.FileInvalidType:
      return texts.invalidType;
    default:
      return texts.otherError;
  }
}

function UploadIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-8" fill="none" stroke="currentColor" strokeWidth="1.5">
      <path d="M12 15V4m0 0L7.5 8.5M12 4l4.5 4.5M4 15v3.5A1.5 1.5 0 0 0 5.5 20h13a1.5 1.5 0 0 0 1.5-1.5V15" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 shrink-0 text-accent" fill="currentColor">
      <path
        fillRule="evenodd"
        d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16zm3.7-9.3a1 1 0 0 0-1.4-1.4L9 10.6 7.7 9.3a1 1 0 0 0-1.4 1.4l2 2a1 1 0 0 0 1.4 0l4-4z"
        clipRule="evenodd"
      />
    </svg>
  );
}

function DocumentIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="1.5">
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8l-5-5z" strokeLinejoin="round" />
      <path d="M14 3v5h5M9 13h6M9 17h4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * One file by drag and drop or the file picker. The empty zone holds a real "select" button (Enter or
 * Space opens the picker; a click anywhere in the zone does too); once a file is chosen it shows what
 * was chosen, with a button to remove it. The zone itself is a labelled group, not a control, so no
 * control is nested in another and the name of each button holds its visible text (WCAG 2.5.3).
 */
export function Dropzone({ kind, label, file, onChange, errorKey, disabled = false, optional = false, testId, ref }: DropzoneProps) {
  const { t } = useTranslation();
  const rules = UPLOAD_RULES[kind];
  const [rejectionKey, setRejectionKey] = useState<string | null>(null);
  const preview = useImagePreview(kind === "cover" ? file : null);
  /** Set when the focused button is about to be swapped for the other one, so the focus follows it. */
  const focusFollowsSwap = useRef(false);
  /** Counts the choices, so that a check finishing after a newer choice (or a removal) changes nothing. */
  const latestChoice = useRef(0);
  const removeButtonRef = useRef<HTMLButtonElement>(null);
  const selectButtonRef = useRef<HTMLButtonElement>(null);
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const hintId = `${baseId}-hint`;
  const errorId = `${baseId}-error`;
  const selectId = `${baseId}-select`;

  const { getRootProps, getInputProps, isDragActive, isDragReject } = useDropzone({
    accept: rules.accept,
    maxSize: rules.maxBytes,
    // An empty file is never a book or a cover; it gets the generic message.
    minSize: 1,
    multiple: false,
    disabled,
    // Once a file is chosen a click no longer picks one: the zone holds the remove button instead.
    noClick: file !== null,
    // The keyboard reaches the picker through the select button, whose click reaches the zone.
    noKeyboard: true,
    onDrop: (accepted, rejections) => {
      const choice = ++latestChoice.current;
      if (rejections.length > 0) {
        setRejectionKey(rejectionMessageKey(rejections, rules));
        onChange(null);
        return;
      }
      const [chosen] = accepted;
      if (!chosen) return;
      focusFollowsSwap.current = document.activeElement === selectButtonRef.current;
      setRejectionKey(null);
      const { decodeCheck } = rules;
      if (!decodeCheck) return onChange(chosen);
      // Shown as ready only once the browser has drawn it; until then the zone stays as it was.
      void decodesAsImage(chosen).then((decodes) => {
        if (choice !== latestChoice.current) return;
        if (!decodes) setRejectionKey(decodeCheck.unreadable);
        onChange(decodes ? chosen : null);
      });
    },
  });

  // Whichever of the two buttons the zone shows takes the focus.
  useImperativeHandle(ref, () => ({ focus: () => (removeButtonRef.current ?? selectButtonRef.current)?.focus() }), []);

  // Choosing a file swaps the select button for the remove button, and removing it swaps them back.
  useEffect(() => {
    if (!focusFollowsSwap.current) return;
    focusFollowsSwap.current = false;
    (file ? removeButtonRef : selectButtonRef).current?.focus();
  }, [file]);

  const remove = () => {
    latestChoice.current += 1;
    focusFollowsSwap.current = true;
    setRejectionKey(null);
    onChange(null);
  };

  const shownErrorKey = rejectionKey ?? errorKey;
  const isRed = isDragReject || shownErrorKey !== undefined;
  const zoneStateClassName = isRed
    ? "border-danger bg-danger-soft"
    : isDragActive
      ? "border-accent bg-accent-soft"
      : file
        ? "border-accent/50 bg-surface"
        : "border-line bg-surface hover:border-accent";
  const describedBy = [hintId, shownErrorKey ? errorId : null].filter(Boolean).join(" ");

  return (
    <div data-testid={testId}>
      <p id={labelId} className="text-sm font-medium text-ink">
        {label}
        {optional && <span className="font-normal text-ink-muted"> ({t("common.optional")})</span>}
      </p>
      {/* Only carries the chosen file; assistive technology uses the buttons instead. */}
      <input {...getInputProps({ "aria-label": undefined, "aria-hidden": true })} />
      <div
        {...getRootProps({
          role: "group",
          "aria-labelledby": labelId,
          // With the zone empty its select button carries the description, so it is heard where the focus is.
          "aria-describedby": file ? describedBy : undefined,
          className: `mt-1 rounded-lg border-2 transition-colors ${file ? "border-solid" : "border-dashed"} ${
            disabled ? "opacity-60" : file ? "" : "cursor-pointer"
          } ${zoneStateClassName}`,
        })}
      >
        {file ? (
          <div className="flex flex-wrap items-center gap-3 p-3 sm:gap-4 sm:p-4">
            {kind === "cover" ? (
              <div className="aspect-[2/3] w-14 shrink-0 overflow-hidden rounded border border-line bg-paper">
                {preview && <img src={preview} alt="" className="size-full object-cover" />}
              </div>
            ) : (
              <div className="grid size-12 shrink-0 place-items-center rounded-md bg-accent-soft text-accent">
                <DocumentIcon />
              </div>
            )}
            <div className="min-w-32 flex-1">
              {!shownErrorKey && (
                <p className="flex items-center gap-1.5 text-sm font-semibold text-accent">
                  <CheckIcon />
                  {t(rules.texts.ready)}
                </p>
              )}
              <p className="mt-0.5 truncate text-sm font-medium text-ink" title={file.name}>
                {file.name}
              </p>
              <p className="text-sm text-ink-muted">
                <FileSizeText bytes={file.size} />
              </p>
            </div>
            <button
              ref={removeButtonRef}
              type="button"
              onClick={remove}
              disabled={disabled}
              aria-label={t("upload.removeFile", { name: file.name })}
              className={buttonClassName("secondary", "ml-auto shrink-0")}
            >
              {t("upload.remove")}
            </button>
          </div>
        ) : (
          <div className="flex flex-col items-center gap-2 px-4 py-6 text-center">
            <span className={isRed ? "text-danger" : "text-accent"}>
              <UploadIcon />
            </span>
            {isDragActive && !isDragReject ? (
              <p className="text-sm font-medium text-ink">{t("upload.dropNow")}</p>
            ) : (
              <>
                {/* A touch screen has no drag and no click: it is told to choose, and a mouse to drag or click. */}
                <p className="text-sm font-medium text-ink pointer-coarse:hidden">{t(rules.texts.prompt)}</p>
                <p className="hidden text-sm font-medium text-ink pointer-coarse:block">{t(rules.texts.touchPrompt)}</p>
              </>
            )}
            {/* No click handler of its own: its click reaches the zone, which opens the picker. */}
            <button
              ref={selectButtonRef}
              type="button"
              id={selectId}
              disabled={disabled}
              aria-labelledby={`${labelId} ${selectId}`}
              aria-describedby={describedBy}
              className={buttonClassName("secondary")}
            >
              {t(rules.texts.select)}
            </button>
          </div>
        )}
      </div>
      <p id={hintId} className="mt-1 text-sm text-ink-muted">
        {t(rules.texts.hint, { maxMb: toMegabytes(rules.maxBytes) })}
      </p>
      {shownErrorKey && (
        <p id={errorId} className="mt-1 text-sm font-medium text-danger">
          {t(shownErrorKey)}
        </p>
      )}
    </div>
  );
}
