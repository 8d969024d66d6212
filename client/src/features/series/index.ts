// The series feature's public file (docs/decisions/0057-client-feature-folders.md): a book's series,
// volume and tags on its page, "next in the series" for the end of the reader, the series and tags
// fields of the book forms, and the author's series on the dashboard. Its screen (series-page.tsx)
// is loaded by App.tsx with import().
export { BookSeriesAndTags, NextInSeries } from "./book-placement";
export { SeriesAndTagsFields } from "./series-and-tags-fields";
export { SeriesManager } from "./series-manager";
export { placementKey, useBookPlacement } from "./use-series";
