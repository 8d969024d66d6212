import type { BookFieldsInput } from "@shared/book-schemas";
import { BOOK_LANGUAGES, CONTENT_RATINGS, DESCRIPTION_MAX, GENRE_KEYS } from "@shared/books";
import { useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { compareLabels } from "@/lib/label-order";
import { RadioCardsField } from "@/ui/radio-cards-field";
import { SelectField } from "@/ui/select-field";
import { TextAreaField } from "@/ui/text-area-field";
import { TextField } from "@/ui/text-field";
import { SeriesAndTagsFields } from "@/features/series";

/** Title, genre, language, description, content rating, series and tags: the same fields, rules and messages in the upload and edit forms. */
export function BookDetailsFields() {
  const { t } = useTranslation();
  const {
    register,
    formState: { errors },
  } = useFormContext<BookFieldsInput>();

  const genreOptions = GENRE_KEYS.map((key) => ({ value: key, label: t(`genres.${key}`) })).sort((a, b) => compareLabels(a.label, b.label));
  const ratingOptions = CONTENT_RATINGS.map((rating) => ({ value: rating, label: t(`contentRating.label.${rating}`), hint: t(`contentRatingField.describe.${rating}`) }));
  const languageOptions = BOOK_LANGUAGES.map((language) => ({ value: language, label: t(`languages.${language}`), lang: language }));

  return (
    <>
      <TextField label={t("upload.titleLabel")} required autoComplete="off" errorKey={errors.title?.message} {...register("title")} />
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField
          label={t("upload.genreLabel")}
          placeholder={t("upload.genrePlaceholder")}
          options={genreOptions}
          required
          errorKey={errors.genre?.message}
          {...register("genre")}
        />
        <SelectField
          label={t("upload.languageLabel")}
          options={languageOptions}
          required
          errorKey={errors.language?.message}
          {...register("language")}
        />
      </div>
      <TextAreaField
        label={t("upload.descriptionLabel")}
        hint={t("upload.descriptionHint", { max: DESCRIPTION_MAX })}
        rows={6}
        required
        errorKey={errors.description?.message}
        {...register("description")}
      />
      <div>
        <RadioCardsField
          legend={t("contentRatingField.label")}
          options={ratingOptions}
          errorKey={errors.contentRating?.message}
          testIdPrefix="content-rating-"
          {...register("contentRating")}
        />
        <p className="mt-2 text-sm text-ink-muted">{t("contentRatingField.hint")}</p>
      </div>
      <SeriesAndTagsFields />
    </>
  );
}
