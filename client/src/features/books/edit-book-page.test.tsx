import type { BookEditions } from "@shared/editions";
import { act, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Route } from "wouter";
import { EditBookPage } from "@/features/books/edit-book-page";
import { adasBook } from "@client-test/book-fixtures";
import { mockXhr } from "@client-test/fake-xhr";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const EDITIONS: BookEditions = {
  current: 1,
  editions: [{ number: 1, createdAt: "2026-01-10T10:00:00.000Z", changelog: null, format: "pdf", fileSize: 2_400_000 }],
  takenEdition: null,
};

const PLACEMENT = { series: { id: 3, title: "The Engines", volume: 1.5, volumes: 2 }, next: null, tags: [{ slug: "computing", name: "Computing" }] };

function renderEditPage(path: string, bookAnswer: () => Response = () => jsonResponse(200, adasBook()), editions: () => BookEditions = () => EDITIONS) {
  const fetchMock = mockFetch((url) => {
    if (url === "/api/auth/user") return jsonResponse(200, ada);
    if (url.endsWith("/editions")) return jsonResponse(200, editions());
    // Its series, volume and tags (docs/product.md#series-and-tags), and the author's series.
    if (url === "/api/books/7/placement") return jsonResponse(200, PLACEMENT);
    if (url === "/api/account/series") return jsonResponse(200, [{ id: 3, title: "The Engines", description: "", bookCount: 1, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" }]);
    return bookAnswer();
  });
  const view = renderWithApp(
    <Route path="/edit-book/:id?">
      <EditBookPage />
    </Route>,
    { path },
  );
  return { ...view, fetchMock };
}

describe("EditBookPage", () => {
  it("fills the form with the book and saves the changes with PUT", async () => {
    const requests = mockXhr();
    const { user, history, fetchMock } = renderEditPage("/edit-book/7");

    const title = await screen.findByLabelText("Title");
    expect(fetchMock).toHaveBeenCalledWith("/api/books/7", expect.anything());
    expect(title).toHaveValue("Notes on the Analytical Engine");
    expect(screen.getByLabelText("Genre")).toHaveDisplayValue("Academic research");
    expect(screen.getByLabelText("Language of the book")).toHaveValue("en");
    expect(screen.getByLabelText("Description")).toHaveValue("How a machine could weave algebraic patterns.");
    expect(screen.getByText("Current cover")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: /^General/ })).toBeChecked();
    expect(await screen.findByRole("option", { name: "The Engines" })).toBeInTheDocument();
    expect(screen.getByLabelText("Series")).toHaveValue("3");
    expect(screen.getByLabelText("Volume")).toHaveValue("1.5");
    expect(within(screen.getByTestId("tag-chips")).getByText("Computing")).toBeInTheDocument();

    await user.clear(title);
    await user.type(title, "Sketch of the Analytical Engine");
    await user.selectOptions(screen.getByLabelText("Language of the book"), "Français");
    await user.click(screen.getByRole("radio", { name: /^Mature/ }));
    await user.click(screen.getByTestId("save-button"));

    const [request] = requests;
    expect(request).toMatchObject({ method: "PUT", url: "/api/books/7", withCredentials: true });
    expect(Object.fromEntries(request!.body!)).toEqual({
      title: "Sketch of the Analytical Engine",
      description: "How a machine could weave algebraic patterns.",
      genre: "investigacionAcademica",
      language: "fr",
      contentRating: "mature",
      // Kept as they were: sent again, as the form shows them.
      seriesId: "3",
      seriesVolume: "1.5",
      tags: "Computing",
    });
    expect(screen.getByTestId("save-button")).toHaveTextContent("Saving…");

    act(() => request!.respond(200, adasBook({ title: "Sketch of the Analytical Engine", language: "fr" })));
    expect(await screen.findByText("Changes saved")).toBeInTheDocument();
    expect(history.at(-1)).toBe("/dashboard");
  });

  it("puts the server's refusal of a new cover for want of room under the cover's zone, in words", async () => {
    const requests = mockXhr();
    const { user, history } = renderEditPage("/edit-book/7");
    await screen.findByLabelText("Title");
    const coverZone = screen.getByTestId("cover-dropzone");
    await user.upload(coverZone.querySelector<HTMLInputElement>("input[type=file]")!, new File(["png"], "cover.png", { type: "image/png" }));
    await user.click(screen.getByTestId("save-button"));

    act(() =>
      requests[0]!.respond(413, { message: "The server has no room for this upload at the moment.", code: "storage_full", fields: { coverImage: "upload.storageFull" } }),
    );

    expect(await within(coverZone).findByText("The server has no room for new files at the moment. Please try again later.")).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent("413");
    expect(history).toEqual(["/edit-book/7"]);
  });

  it("publishes a new edition with its file and changelog, and lists the editions (docs/product.md#editions)", async () => {
    const requests = mockXhr();
    let editions = EDITIONS;
    const { user } = renderEditPage("/edit-book/7", undefined, () => editions);
    const section = await screen.findByTestId("new-edition");
    expect(within(section).getByRole("heading", { name: "New edition" })).toBeInTheDocument();
    expect(await within(section).findByTestId("edition-1")).toHaveTextContent("First edition.");
    // Nothing goes without a file and a changelog.
    await user.click(within(section).getByTestId("publish-edition"));
    expect(within(section).getByLabelText(/What changed/)).toHaveAccessibleDescription(/Say what changed in this edition/);
    expect(requests).toEqual([]);

    await user.upload(within(section).getByTestId("edition-dropzone").querySelector<HTMLInputElement>("input[type=file]")!, new File(["%PDF-1.7"], "second.pdf", { type: "application/pdf" }));
    await user.type(within(section).getByLabelText(/What changed/), "Chapter 3 rewritten.");
    await user.click(within(section).getByTestId("publish-edition"));
    const [request] = requests;
    expect(request).toMatchObject({ method: "POST", url: "/api/books/7/editions" });
    expect(Object.fromEntries(request!.body!)).toMatchObject({ changelog: "Chapter 3 rewritten." });
    expect((request!.body!.get("file") as File).name).toBe("second.pdf");

    editions = {
      current: 2,
      editions: [{ number: 2, createdAt: "2026-02-10T10:00:00.000Z", changelog: "Chapter 3 rewritten.", format: "pdf", fileSize: 2_500_000 }, ...EDITIONS.editions],
      takenEdition: null,
    };
    act(() => request!.respond(201, editions));
    expect(await screen.findByText("Edition 2 published")).toBeInTheDocument();
    expect(await within(section).findByTestId("edition-2")).toHaveTextContent("Chapter 3 rewritten.");
    expect(within(section).getByTestId("publish-edition")).toHaveTextContent("Publish edition 3");
  });

  it("puts the server's refusal of a new edition's file under its zone, in words", async () => {
    const requests = mockXhr();
    const { user } = renderEditPage("/edit-book/7");
    const section = await screen.findByTestId("new-edition");
    const zone = within(section).getByTestId("edition-dropzone");
    await user.upload(zone.querySelector<HTMLInputElement>("input[type=file]")!, new File(["%PDF-1.7"], "same.pdf", { type: "application/pdf" }));
    await user.type(within(section).getByLabelText(/What changed/), "Nothing, really.");
    await user.click(within(section).getByTestId("publish-edition"));
    act(() =>
      requests[0]!.respond(409, { message: "This file is the book's current edition.", code: "edition_unchanged", fields: { file: "upload.editionUnchanged" } }),
    );
    expect(await within(zone).findByText("This file is the book's current edition: choose the changed file.")).toBeInTheDocument();
  });

  it("says which field is missing without sending anything", async () => {
    const requests = mockXhr();
    const { user } = renderEditPage("/edit-book/7");

    await user.clear(await screen.findByLabelText("Description"));
    await user.type(screen.getByLabelText("Description"), "   ");
    await user.click(screen.getByTestId("save-button"));

    expect(screen.getByLabelText("Description")).toHaveAccessibleDescription(/Description is required/);
    expect(requests).toEqual([]);
  });

  it("shows 'book not found' with a way back to the dashboard when the book does not exist", async () => {
    renderEditPage("/edit-book/404", () => jsonResponse(404, { message: "This book does not exist.", code: "not_found" }));

    expect(await screen.findByRole("heading", { name: "Book not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to the dashboard" })).toHaveAttribute("href", "/dashboard");
  });

  it("tells a reader who is not the author that only the author can edit", async () => {
    renderEditPage("/edit-book/7", () =>
      jsonResponse(200, adasBook({ author: { id: "someone-else", firstName: "Mary", lastName: "Shelley", displayName: "Mary Shelley" } })),
    );

    expect(await screen.findByRole("heading", { name: "Only the author can edit this book" })).toBeInTheDocument();
    expect(screen.queryByTestId("save-button")).not.toBeInTheDocument();
  });

  it.each(["/edit-book/abc", "/edit-book"])("says the id of %s is not valid without asking the server for a book", (path) => {
    const { fetchMock } = renderEditPage(path);

    expect(screen.getByText("This book ID is not valid.")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith(expect.stringMatching(/^\/api\/books/), expect.anything());
  });
});
