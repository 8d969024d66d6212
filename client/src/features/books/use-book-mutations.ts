import type { BookFields } from "@shared/book-schemas";
import { type BookCard, STORAGE_QUOTA_EXCEEDED } from "@shared/books";
import type { BookEditions } from "@shared/editions";
import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation } from "wouter";
import { authorBooksQueryKey } from "@/features/books/use-books";
import { STORAGE_USAGE_KEY } from "@/features/books/use-storage";
import i18n from "@/lib/i18n";
import { ApiError, apiRequest, sendForm } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import { isUnauthorizedError } from "@/lib/login-redirect";
import { toast } from "@/lib/toast";

/** Where an author lands after publishing or editing: the list of their books. */
const AUTHOR_HOME = "/dashboard";

interface BookFiles {
  file?: File;
  coverImage: File | null;
}

/** The multipart body of POST and PUT /api/books: the checked fields first, then the files. */
function bookFormData(fields: BookFields, { file, coverImage }: BookFiles): FormData {
  const form = new FormData();
  form.append("title", fields.title);
  form.append("description", fields.description);
  form.append("genre", fields.genre);
  form.append("language", fields.language);
  if (fields.contentRating) form.append("contentRating", fields.contentRating);
  // Series and tags (docs/product.md#series-and-tags): sent empty to take the book out of its series, or its tags off.
  if (fields.seriesId !== undefined) form.append("seriesId", fields.seriesId === null ? "" : String(fields.seriesId));
  if (fields.seriesVolume !== undefined) form.append("seriesVolume", fields.seriesVolume === null ? "" : String(fields.seriesVolume));
  if (fields.tags !== undefined) form.append("tags", fields.tags.map((tag) => tag.name).join(", "));
  if (file) form.append("file", file);
  if (coverImage) form.append("coverImage", coverImage);
  return form;
}

/** Every read that shows books or counts them: the catalog, a book, an author's books and figures, the totals, the storage they keep. */
const BOOK_READ_PATHS = ["/api/books", "/api/authors", "/api/stats", "/api/series", "/api/account/series", "/api/tags", STORAGE_USAGE_KEY];

/** After a book changes, every cached read under those paths is refreshed (docs/product.md#client-data). */
function refreshBookReads(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({
    predicate: ({ queryKey: [path] }) => typeof path === "string" && BOOK_READ_PATHS.some((prefix) => path.startsWith(prefix)),
  });
}

export type NewBook = BookFields & { file: File; coverImage: File | null };

// A refused upload or edit shows in its form, and only there (docs/product.md#errors): the screens
// pass the mutation's error to showServerErrors.

/** Publishes a book and reports how much of it has been sent, from 0 to 1. */
export function usePublishBook() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [sentFraction, setSentFraction] = useState(0);

  const mutation = useMutation({
    mutationFn: ({ file, coverImage, ...fields }: NewBook) => {
      setSentFraction(0);
      return sendForm<BookCard>("POST", "/api/books", bookFormData(fields, { file, coverImage }), setSentFraction);
    },
    onSuccess: (book) => {
      refreshBookReads(queryClient);
      // Published hidden as a near copy of another account's book (docs/product.md#moderation): the dashboard says why.
      const description = book.moderationState === "hidden" ? "upload.publishedHiddenDescription" : "upload.successDescription";
      toast({ title: i18n.t("upload.successTitle"), description: i18n.t(description, { title: book.title }) });
      navigate(AUTHOR_HOME);
    },
    // A book refused for want of room: the usage shown beside the form may be behind (another tab's upload).
    onError: (error) => {
      if (error instanceof ApiError && error.body?.code === STORAGE_QUOTA_EXCEEDED) void queryClient.invalidateQueries({ queryKey: [STORAGE_USAGE_KEY] });
    },
  });
  return { ...mutation, sentFraction };
}

export type BookChanges = BookFields & { coverImage: File | null };

export function useUpdateBook(bookId: number) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();

  return useMutation({
    mutationFn: ({ coverImage, ...fields }: BookChanges) =>
      sendForm<BookCard>("PUT", `/api/books/${bookId}`, bookFormData(fields, { coverImage })),
    onSuccess: (book) => {
      refreshBookReads(queryClient);
      toast({ title: i18n.t("editBook.successTitle"), description: i18n.t("editBook.successDescription", { title: book.title }) });
      navigate(AUTHOR_HOME);
    },
  });
}

/** Deletes one of the author's books (the server keeps its downloads and payments, docs/product.md#books). */
export function useDeleteBook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (book: BookCard) => apiRequest("DELETE", `/api/books/${book.id}`),
    onSuccess: (_response, book) => {
      // Gone from the author's list at once, so the dialog closes on a list without it.
      queryClient.setQueryData<BookCard[]>(authorBooksQueryKey(book.author.id), (books) => books?.filter(({ id }) => id !== book.id));
      refreshBookReads(queryClient);
      toast({ title: i18n.t("dashboard.books.deleted.title"), description: i18n.t("dashboard.books.deleted.description", { title: book.title }) });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast({ variant: "destructive", title: i18n.t("common.error"), description: errorText(error, "dashboard.books.deleteError") });
    },
  });
}

export type NewEdition = { file: File; changelog: string };

/**
 * Publishes a new edition of one's book (docs/product.md#editions) and reports how much of its file has
 * been sent, from 0 to 1; the book's reads (its page, its editions, the storage) are read again.
 */
export function usePublishEdition(book: Pick<BookCard, "id" | "title">) {
  const queryClient = useQueryClient();
  const [sentFraction, setSentFraction] = useState(0);
  const mutation = useMutation({
    mutationFn: ({ file, changelog }: NewEdition) => {
      setSentFraction(0);
      const form = new FormData();
      form.append("changelog", changelog);
      form.append("file", file);
      return sendForm<BookEditions>("POST", `/api/books/${book.id}/editions`, form, setSentFraction);
    },
    onSuccess: (editions) => {
      refreshBookReads(queryClient);
      toast({ title: i18n.t("editionForm.successTitle", { number: editions.current }), description: i18n.t("editionForm.successDescription", { title: book.title }) });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.body?.code === STORAGE_QUOTA_EXCEEDED) void queryClient.invalidateQueries({ queryKey: [STORAGE_USAGE_KEY] });
    },
  });
  return { ...mutation, sentFraction };
}
