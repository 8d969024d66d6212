import { SERIES_TITLE_MAX, TAG_MAX, TAG_SEPARATOR, TAGS_PER_BOOK_MAX, tagDisplayName, tagSlug } from "@shared/series-and-tags";
import { type KeyboardEvent, useId, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "@/lib/api";
import { fieldControlClassName } from "@/ui/form-field";
import { SelectField } from "@/ui/select-field";
import { buttonClassName } from "@/ui/styles";
import { TextField } from "@/ui/text-field";
import { useCreateSeries, useOwnSeries, useTagSuggestions } from "./use-series";

/** The series, volume and tags fields of the book forms, as their zod schema takes them: text. */
interface PlacementFields {
  seriesId?: string;
  seriesVolume?: string;
  tags?: string;
}

const NO_SERIES = "";

/** A new series made from the book form, chosen at once. */
function NewSeries({ onCreated }: { onCreated: (id: number) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const create = useCreateSeries();
  const errorKey = create.error instanceof ApiError ? (create.error.body?.fields?.title ?? "upload.seriesCreateError") : create.error ? "upload.seriesCreateError" : undefined;
  if (!open) {
    return (
      <button type="button" data-testid="new-series" onClick={() => setOpen(true)} className={buttonClassName("secondary", "min-h-11")}>
        {t("upload.newSeries")}
      </button>
    );
  }
  const submit = () => {
    if (title.trim() === "") return;
    create.mutate({ title }, { onSuccess: (series) => { onCreated(series.id); setOpen(false); setTitle(""); } });
  };
  return (
    <div className="flex flex-wrap items-end gap-3">
      <TextField
        label={t("upload.newSeriesTitle")}
        name="newSeriesTitle"
        data-testid="new-series-title"
        value={title}
        maxLength={SERIES_TITLE_MAX}
        errorKey={errorKey}
        className="min-w-0 flex-1"
        onChange={(event) => setTitle(event.target.value)}
        // Enter makes the series, never submits the book.
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            submit();
          }
        }}
      />
      <button type="button" data-testid="create-series" onClick={submit} disabled={create.isPending} className={buttonClassName("primary", "min-h-11")}>
        {t("upload.createSeries")}
      </button>
    </div>
  );
}

/** Tags as removable chips and a box that adds them, with suggestions of tags others use. */
function TagsField() {
  const { t } = useTranslation();
  const {
    control,
    setValue,
    formState: { errors },
  } = useFormContext<PlacementFields>();
  const value = useWatch({ control, name: "tags" });
  const [text, setText] = useState("");
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const suggestionsId = useId();
  const tags = (value ?? "")
    .split(TAG_SEPARATOR)
    .map(tagDisplayName)
    .filter((tag) => tag !== "");
  const { data: suggestions = [] } = useTagSuggestions(text);
  const full = tags.length >= TAGS_PER_BOOK_MAX;
  const slugs = new Set(tags.map(tagSlug));
  const shown = suggestions.filter((tag) => !slugs.has(tag.slug));

  const setTags = (next: string[]) => setValue("tags", next.join(`${TAG_SEPARATOR} `), { shouldDirty: true, shouldValidate: true });
  const add = (name: string) => {
    const tag = tagDisplayName(name.replaceAll(TAG_SEPARATOR, " "));
    setText("");
    if (tag === "" || full || slugs.has(tagSlug(tag))) return;
    setTags([...tags, tag]);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === TAG_SEPARATOR) {
      event.preventDefault();
      add(text);
    } else if (event.key === "Backspace" && text === "" && tags.length > 0) {
      setTags(tags.slice(0, -1));
    }
  };
  const errorKey = errors.tags?.message;

  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium text-ink">
        {t("upload.tagsLabel")} <span className="font-normal text-ink-muted">({t("common.optional")})</span>
      </label>
      {tags.length > 0 && (
        <ul role="list" data-testid="tag-chips" className="mt-2 flex flex-wrap gap-2">
          {tags.map((tag) => (
            <li key={tagSlug(tag) || tag} className="inline-flex items-center gap-1 rounded-full bg-accent-soft py-1 ps-3 pe-1 text-sm font-semibold text-accent-strong">
              {tag}
              <button
                type="button"
                aria-label={t("upload.removeTag", { tag })}
                onClick={() => setTags(tags.filter((other) => other !== tag))}
                className="inline-flex size-8 items-center justify-center rounded-full hover:bg-surface"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={inputId}
        type="text"
        data-testid="tags-input"
        value={text}
        disabled={full}
        maxLength={TAG_MAX}
        autoComplete="off"
        aria-invalid={errorKey ? true : undefined}
        aria-describedby={[hintId, errorKey ? errorId : null].filter(Boolean).join(" ")}
        aria-controls={shown.length > 0 ? suggestionsId : undefined}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (text.trim()) add(text);
        }}
        className={`${fieldControlClassName} min-h-11`}
      />
      <p id={hintId} className="mt-1 text-sm text-ink-muted">
        {t("upload.tagsHint", { count: TAGS_PER_BOOK_MAX, used: tags.length })}
      </p>
      {errorKey && (
        <p id={errorId} className="mt-1 text-sm font-medium text-danger">
          {t(errorKey)}
        </p>
      )}
      {text.trim() && shown.length > 0 && (
        <div id={suggestionsId} className="mt-2">
          <p className="text-sm text-ink-muted">{t("upload.tagSuggestions")}</p>
          <ul role="list" data-testid="tag-suggestions" className="mt-1 flex flex-wrap gap-2">
            {shown.map((tag) => (
              <li key={tag.slug}>
                <button
                  type="button"
                  // Chosen before the box's blur adds the typed text.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => add(tag.name)}
                  className="inline-flex min-h-11 items-center rounded-full border border-line-strong px-3 text-sm hover:border-accent"
                >
                  {t("upload.addTag", { tag: tag.name, count: tag.books })}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The author's series (or a new one), the book's volume in it, and its tags (docs/product.md#series-and-tags). */
export function SeriesAndTagsFields() {
  const { t } = useTranslation();
  const {
    register,
    control,
    setValue,
    formState: { errors },
  } = useFormContext<PlacementFields>();
  const { data } = useOwnSeries();
  const series = Array.isArray(data) ? data : [];
  // Controlled: the book's series (or one made here) is shown chosen once the list that names it is drawn.
  const seriesId = useWatch({ control, name: "seriesId" }) ?? NO_SERIES;
  const chooseSeries = (id: string) => setValue("seriesId", id, { shouldDirty: true });
  const options = [{ value: NO_SERIES, label: t("upload.noSeries") }, ...series.map((each) => ({ value: String(each.id), label: each.title }))];

  return (
    <fieldset className="space-y-4 rounded-lg border border-line p-4">
      <legend className="px-1 text-sm font-semibold">{t("upload.seriesLegend")}</legend>
      <div className="grid gap-5 sm:grid-cols-[minmax(0,1fr)_9rem]">
        <SelectField
          label={t("upload.seriesLabel")}
          name="seriesId"
          data-testid="series-select"
          options={options}
          value={seriesId}
          onChange={(event) => chooseSeries(event.target.value)}
          errorKey={errors.seriesId?.message}
        />
        <TextField
          label={t("upload.volumeLabel")}
          data-testid="series-volume"
          inputMode="decimal"
          autoComplete="off"
          errorKey={errors.seriesVolume?.message}
          {...register("seriesVolume")}
        />
      </div>
      <NewSeries onCreated={(id) => chooseSeries(String(id))} />
      <TagsField />
    </fieldset>
  );
}
