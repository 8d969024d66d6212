import { SERIES_DESCRIPTION_MAX, SERIES_TITLE_MAX, type SeriesSummary, seriesFieldsSchema, seriesPath } from "@shared/series-and-tags";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { ApiError } from "@/lib/api";
import { useNumberFormat } from "@/lib/use-number-format";
import { toast } from "@/lib/toast";
import { ConfirmDialog } from "@/ui/confirm-dialog";
import { Panel } from "@/ui/panel";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { TextAreaField } from "@/ui/text-area-field";
import { TextField } from "@/ui/text-field";
import { useCreateSeries, useDeleteSeries, useEditSeries, useOwnSeries } from "./use-series";

type FieldErrors = Partial<Record<"title" | "description", string>>;

/** The form's checks, then the server's: each refused field names its key. */
function errorsOf(error: unknown): FieldErrors {
  if (error instanceof ApiError && error.body?.fields) return error.body.fields as FieldErrors;
  return error ? { title: "dashboard.series.saveError" } : {};
}

/** A series' title and description, written anew or changed; the same checks as the API's (shared/series-and-tags.ts). */
function SeriesForm({ initial, submitLabel, testId, onSave, isPending, serverError, onCancel }: {
  initial: { title: string; description: string };
  submitLabel: string;
  testId: string;
  onSave: (fields: { title: string; description: string }) => void;
  isPending: boolean;
  serverError: unknown;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(initial.title);
  const [description, setDescription] = useState(initial.description);
  const [checked, setChecked] = useState<FieldErrors>({});
  const errors = { ...errorsOf(serverError), ...checked };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = seriesFieldsSchema.safeParse({ title, description });
    if (!parsed.success) {
      setChecked(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setChecked({});
    onSave(parsed.data);
  };
  return (
    <form noValidate onSubmit={submit} data-testid={testId} className="mt-4 space-y-4">
      <TextField label={t("dashboard.series.titleLabel")} name="title" value={title} maxLength={SERIES_TITLE_MAX} required errorKey={errors.title} onChange={(event) => setTitle(event.target.value)} />
      <TextAreaField
        label={t("dashboard.series.descriptionLabel")}
        name="description"
        optional
        rows={3}
        value={description}
        maxLength={SERIES_DESCRIPTION_MAX}
        errorKey={errors.description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={isPending} className={buttonClassName("primary", "min-h-11")}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel} className={buttonClassName("secondary", "min-h-11")}>
            {t("dashboard.series.cancel")}
          </button>
        )}
      </div>
    </form>
  );
}

function SeriesRow({ series, listEnd }: { series: SeriesSummary; listEnd: React.RefObject<HTMLElement | null> }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const edit = useEditSeries(series.id);
  const remove = useDeleteSeries();
  if (editing) {
    return (
      <li className="py-4">
        <SeriesForm
          initial={series}
          submitLabel={t("dashboard.series.save")}
          testId="edit-series-form"
          isPending={edit.isPending}
          serverError={edit.error}
          onSave={(fields) => edit.mutate(fields, { onSuccess: () => setEditing(false) })}
          onCancel={() => setEditing(false)}
        />
      </li>
    );
  }
  return (
    <li data-testid="series-row" className="flex flex-wrap items-center justify-between gap-3 py-4">
      <div className="min-w-0">
        <Link href={seriesPath(series.id)} className={`${textLinkClassName} break-words`}>
          {series.title}
        </Link>
        <p className="text-sm text-ink-muted">{t("dashboard.series.bookCount", { count: series.bookCount, formatted: format.integer(series.bookCount) })}</p>
      </div>
      <div className="flex gap-2">
        <button type="button" onClick={() => setEditing(true)} aria-label={t("dashboard.series.editNamed", { title: series.title })} className={buttonClassName("secondary", "min-h-11")}>
          {t("dashboard.series.edit")}
        </button>
        <button type="button" onClick={() => setConfirming(true)} aria-label={t("dashboard.series.deleteNamed", { title: series.title })} className={buttonClassName("danger", "min-h-11")}>
          {t("dashboard.series.delete")}
        </button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={t("dashboard.series.deleteTitle", { title: series.title })}
          description={t("dashboard.series.deleteDescription")}
          confirmLabel={t("dashboard.series.delete")}
          pendingLabel={t("dashboard.series.deleting")}
          isPending={remove.isPending}
          fallbackFocus={listEnd}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(series.id, {
              onSuccess: () => setConfirming(false),
              onError: () => toast({ variant: "destructive", title: t("common.error"), description: t("dashboard.series.deleteError") }),
            })
          }
        />
      )}
    </li>
  );
}

/** The author's series on the dashboard (docs/product.md#series-and-tags): made, renamed, described and deleted here; books are put in them from their forms. */
export function SeriesManager() {
  const { t } = useTranslation();
  const { data: series, isPending } = useOwnSeries();
  const create = useCreateSeries();
  const [formKey, setFormKey] = useState(0);
  const listEnd = useRef<HTMLElement | null>(null);
  return (
    <Panel title={t("dashboard.series.title")} description={t("dashboard.series.description")}>
      {!isPending && series && series.length > 0 && (
        <ul role="list" data-testid="series-list" className="mt-2 divide-y divide-line">
          {series.map((each) => (
            <SeriesRow key={each.id} series={each} listEnd={listEnd} />
          ))}
        </ul>
      )}
      {!isPending && series?.length === 0 && <p className="mt-4 text-ink-muted">{t("dashboard.series.none")}</p>}
      <h3 ref={(element) => void (listEnd.current = element)} tabIndex={-1} className="mt-6 font-semibold">
        {t("dashboard.series.newHeading")}
      </h3>
      <SeriesForm
        key={formKey}
        initial={{ title: "", description: "" }}
        submitLabel={t("dashboard.series.create")}
        testId="new-series-form"
        isPending={create.isPending}
        serverError={create.error}
        onSave={(fields) => create.mutate(fields, { onSuccess: () => setFormKey((key) => key + 1) })}
      />
    </Panel>
  );
}
