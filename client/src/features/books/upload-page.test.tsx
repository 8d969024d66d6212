import { act, screen, waitFor, within } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import i18n from "@/lib/i18n";
import { UploadPage } from "@/features/books/upload-page";
import { adasBook } from "@client-test/book-fixtures";
import { epubFile } from "@client-test/epub-file";
import { mockXhr } from "@client-test/fake-xhr";
import { jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp, shownAlerts } from "@client-test/render";

const bookFile = () => new File(["%PDF-1.7 notes"], "notes.pdf", { type: "application/pdf" });
const coverFile = () => new File(["png"], "cover.png", { type: "image/png" });

const fileInput = (testId: string) => screen.getByTestId(testId).querySelector<HTMLInputElement>("input[type=file]")!;

async function fillInDetails(user: UserEvent) {
  await user.type(screen.getByLabelText("Title"), "  Notes on the Analytical Engine ");
  await user.selectOptions(screen.getByLabelText("Genre"), "Academic research");
  await user.type(screen.getByLabelText("Description"), "How a machine could weave algebraic patterns.");
}

describe("UploadPage", () => {
  it("asks for the book file and the details, and sends nothing", async () => {
    const requests = mockXhr();
    const { user } = renderWithApp(<UploadPage />, { path: "/upload" });

    await user.click(screen.getByTestId("publish-button"));

    expect(within(screen.getByTestId("book-dropzone")).getByText("Choose your book's file before publishing")).toBeInTheDocument();
    expect(screen.getByLabelText("Title")).toHaveAccessibleDescription("Title is required");
    expect(screen.getByLabelText("Genre")).toHaveAccessibleDescription("Choose a genre");
    expect(requests).toEqual([]);
  });

  it("fills in the title, language and description from a chosen EPUB, and says so", async () => {
    const { user } = renderWithApp(<UploadPage />, { path: "/upload" });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await user.upload(fileInput("book-dropzone"), await epubFile({ cover: png }));

    await waitFor(() => expect(screen.getByLabelText("Title")).toHaveValue("El faro de los libros perdidos"));
    // The preview shows the cover the book will get: the package's.
    const preview = screen.getByRole("complementary", { name: "Preview" });
    await waitFor(() => expect(within(preview).getByRole("img").getAttribute("src")).toMatch(/^data:image\/png;base64,/));
    expect(screen.getByLabelText("Language of the book")).toHaveValue("es");
    expect(screen.getByLabelText("Description")).toHaveValue("Una guardiana de faro encuentra una biblioteca.");
    expect(screen.getByTestId("epub-details-read")).toHaveTextContent("Title, language and description were filled in from the EPUB: check them");
  });

  it("never overwrites what the author already typed or chose", async () => {
    const { user } = renderWithApp(<UploadPage />, { path: "/upload" });
    await user.type(screen.getByLabelText("Title"), "Mi título");
    await user.selectOptions(screen.getByLabelText("Language of the book"), "fr");
    await user.upload(fileInput("book-dropzone"), await epubFile());

    await waitFor(() => expect(screen.getByLabelText("Description")).toHaveValue("Una guardiana de faro encuentra una biblioteca."));
    expect(screen.getByLabelText("Title")).toHaveValue("Mi título");
    expect(screen.getByLabelText("Language of the book")).toHaveValue("fr");
  });

  it("leaves the language as it is for a book in a language Plume does not list", async () => {
    const { user } = renderWithApp(<UploadPage />, { path: "/upload" });
    await user.upload(fileInput("book-dropzone"), await epubFile({ language: "de" }));

    await waitFor(() => expect(screen.getByLabelText("Title")).toHaveValue("El faro de los libros perdidos"));
    expect(screen.getByLabelText("Language of the book")).toHaveValue("en");
  });

  it("publishes the book as multipart with its fields and files, showing the progress", async () => {
    const requests = mockXhr();
    const { user, history } = renderWithApp(<UploadPage />, { path: "/upload" });
    expect(screen.getByLabelText("Language of the book")).toHaveValue("en");

    await user.upload(fileInput("book-dropzone"), bookFile());
    await user.upload(fileInput("cover-dropzone"), coverFile());
    await fillInDetails(user);
    expect(screen.getByRole("complementary", { name: "Preview" })).toHaveTextContent("Notes on the Analytical Engine");
    await user.click(screen.getByTestId("publish-button"));

    const [request] = requests;
    expect(request).toMatchObject({ method: "POST", url: "/api/books", withCredentials: true });
    const body = request!.body!;
    expect([...body.keys()]).toEqual(["title", "description", "genre", "language", "contentRating", "seriesId", "seriesVolume", "tags", "file", "coverImage"]);
    // In no series, without tags (docs/product.md#series-and-tags).
    expect([body.get("seriesId"), body.get("seriesVolume"), body.get("tags")]).toEqual(["", "", ""]);
    // Not changed: General, the rating every book has unless its author says otherwise.
    expect(body.get("contentRating")).toBe("general");
    expect(body.get("title")).toBe("Notes on the Analytical Engine");
    expect(body.get("genre")).toBe("investigacionAcademica");
    expect(body.get("language")).toBe("en");
    expect((body.get("file") as File).name).toBe("notes.pdf");
    expect((body.get("coverImage") as File).name).toBe("cover.png");
    expect(screen.getByTestId("publish-button")).toBeDisabled();
    expect(screen.getByTestId("publish-button")).toHaveTextContent("Publishing…");

    act(() => request!.reportProgress(40, 100));
    expect(screen.getByTestId("upload-progress")).toHaveAttribute("aria-valuenow", "40");

    act(() => request!.respond(201, adasBook()));
    expect(await screen.findByText("Book published")).toBeInTheDocument();
    expect(history.at(-1)).toBe("/dashboard");
  });

  it("puts the server's refusal of the book file under its zone, in no toast and with no status code, until another file is chosen", async () => {
    const requests = mockXhr();
    const { user, history } = renderWithApp(<UploadPage />, { path: "/upload" });
    await user.upload(fileInput("book-dropzone"), bookFile());
    await fillInDetails(user);
    await user.click(screen.getByTestId("publish-button"));

    act(() =>
      requests[0]!.respond(415, {
        message: "The file is not one of: pdf, doc, docx.",
        code: "file_invalid_type",
        fields: { file: "upload.fileInvalidType" },
      }),
    );

    const bookDropzone = screen.getByTestId("book-dropzone");
    expect(await within(bookDropzone).findByText("The file must be a PDF, DOC, DOCX or EPUB document")).toBeInTheDocument();
    expect(within(bookDropzone).getByRole("button", { name: "Remove notes.pdf" })).toHaveFocus();
    expect(shownAlerts()).toEqual([]);
    expect(document.body).not.toHaveTextContent("415");
    expect(screen.getByTestId("publish-button")).toBeEnabled();
    expect(history).toEqual(["/upload"]);

    await user.upload(fileInput("book-dropzone"), new File(["%PDF-1.7"], "notes-fixed.pdf", { type: "application/pdf" }));
    expect(within(bookDropzone).queryByText("The file must be a PDF, DOC, DOCX or EPUB document")).not.toBeInTheDocument();
    expect(within(bookDropzone).getByText("File ready")).toBeInTheDocument();
  });

  it.each([
    ["duplicate_file", "upload.fileDuplicate", "This file is already on Plume, published by another account: only its rights holder may publish it"],
    ["duplicate_own_file", "upload.fileDuplicateOwn", "You have already published this very file: edit that book instead of uploading it again"],
  ])("puts the refusal of a copy (%s) under the book's zone, in words", async (code, key, text) => {
    const requests = mockXhr();
    const { user } = renderWithApp(<UploadPage />, { path: "/upload" });
    await user.upload(fileInput("book-dropzone"), bookFile());
    await fillInDetails(user);
    await user.click(screen.getByTestId("publish-button"));
    act(() => requests[0]!.respond(409, { message: "This file is already on Plume.", code, fields: { file: key } }));
    expect(await within(screen.getByTestId("book-dropzone")).findByText(text)).toBeInTheDocument();
    expect(shownAlerts()).toEqual([]);
    expect(document.body).not.toHaveTextContent("409");
  });

  it("says a book published hidden as a near copy is under review, and where to read why", async () => {
    const requests = mockXhr();
    const { user, history } = renderWithApp(<UploadPage />, { path: "/upload" });
    await user.upload(fileInput("book-dropzone"), bookFile());
    await fillInDetails(user);
    await user.click(screen.getByTestId("publish-button"));
    act(() => requests[0]!.respond(201, { ...adasBook(), moderationState: "hidden" }));
    expect(await screen.findByText(/is published but hidden while we review it/)).toBeInTheDocument();
    expect(screen.queryByText(/is now in the catalog/)).not.toBeInTheDocument();
    expect(history.at(-1)).toBe("/dashboard");
  });

  it("shows how much of their storage the author's books keep", async () => {
    mockFetch((url) => (url === "/api/account/storage" ? jsonResponse(200, { usedBytes: 120 * 1024 * 1024, limitBytes: 1024 * 1024 * 1024 }) : jsonResponse(404, {})));
    renderWithApp(<UploadPage />, { path: "/upload" });

    const meter = await screen.findByRole("meter", { name: "Using 120 MB of 1 GB" });
    expect(meter).toHaveAttribute("aria-valuenow", String(120 * 1024 * 1024));
    expect(screen.getByTestId("storage-usage")).toHaveTextContent("deleting a book frees its space");
  });

  it.each([
    ["storage_quota_exceeded", "upload.storageQuotaExceeded", "This file does not fit in your storage space. Delete a book you no longer need, or choose a smaller file."],
    ["storage_full", "upload.storageFull", "The server has no room for new files at the moment. Please try again later."],
  ])("puts a refusal for want of room (%s) under the book's zone, in words; over the quota, reads the usage again", async (code, key, text) => {
    const usage = { usedBytes: 1000 * 1024 * 1024, limitBytes: 1024 * 1024 * 1024 };
    const fetchMock = mockFetch(() => jsonResponse(200, usage));
    const requests = mockXhr();
    const { user } = renderWithApp(<UploadPage />, { path: "/upload" });
    expect(await screen.findByRole("meter", { name: "Using 1,000 MB of 1 GB" })).toBeInTheDocument();
    await user.upload(fileInput("book-dropzone"), bookFile());
    await fillInDetails(user);
    await user.click(screen.getByTestId("publish-button"));

    usage.usedBytes = 1020 * 1024 * 1024;
    act(() => requests[0]!.respond(413, { message: "This upload does not fit in the account's storage.", code, fields: { file: key } }));

    expect(await within(screen.getByTestId("book-dropzone")).findByText(text)).toBeInTheDocument();
    expect(shownAlerts()).toEqual([]);
    expect(document.body).not.toHaveTextContent("413");
    // The storage reads only: the form also reads the author's series (docs/product.md#series-and-tags).
    const storageReads = () => fetchMock.mock.calls.filter(([url]) => String(url) === "/api/account/storage").length;
    if (code === "storage_quota_exceeded") {
      expect(await screen.findByRole("meter", { name: "Using 1,020 MB of 1 GB" })).toBeInTheDocument();
      expect(storageReads()).toBe(2);
    } else {
      await waitFor(() => expect(storageReads()).toBe(1));
    }
  });

  it("speaks of storage in the reader's language", async () => {
    await i18n.changeLanguage("fr");
    mockFetch(() => jsonResponse(200, { usedBytes: 1536 * 1024 * 1024, limitBytes: 2048 * 1024 * 1024 }));
    renderWithApp(<UploadPage />, { path: "/upload" });
    expect(await screen.findByRole("meter", { name: "1,5 Go utilisés sur 2 Go" })).toBeInTheDocument();
  });

  it("asks for the content rating as four described choices, General first chosen, and sends the one picked", async () => {
    const requests = mockXhr();
    const { user } = renderWithApp(<UploadPage />, { path: "/upload" });
    const group = screen.getByRole("group", { name: "Content rating" });
    expect(within(group).getAllByRole("radio").map((radio) => (radio as HTMLInputElement).value)).toEqual(["general", "teen", "mature", "explicit"]);
    expect(within(group).getByRole("radio", { name: /General/ })).toBeChecked();
    expect(group).toHaveTextContent("Graphic sexual content or graphic violence.");

    await user.upload(fileInput("book-dropzone"), bookFile());
    await fillInDetails(user);
    await user.click(within(group).getByRole("radio", { name: /Explicit/ }));
    await user.click(screen.getByTestId("publish-button"));

    expect(requests[0]!.body!.get("contentRating")).toBe("explicit");
  });
});
