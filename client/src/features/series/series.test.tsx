import type { BookPlacement, SeriesPage as SeriesPageData, SeriesSummary } from "@shared/series-and-tags";
import { screen, waitFor, within } from "@testing-library/react";
import { FormProvider, useForm } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { Route } from "wouter";
import { adasBook } from "@client-test/book-fixtures";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";
import { BookSeriesAndTags, NextInSeries } from "./book-placement";
import { SeriesAndTagsFields } from "./series-and-tags-fields";
import { SeriesManager } from "./series-manager";
import { SeriesPage } from "./series-page";

const placement: BookPlacement = {
  series: { id: 3, title: "The Long Road", volume: 1, volumes: 3 },
  next: { id: 9, title: "Halfway", volume: 1.5 },
  tags: [
    { slug: "road-trip", name: "Road trip" },
    { slug: "science-fiction", name: "Science Fiction" },
  ],
};

const ownSeries: SeriesSummary[] = [{ id: 3, title: "The Long Road", description: "", bookCount: 2, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" }];

describe("a book's series and tags", () => {
  it("says which volume of which series the book is, links the next volume and each tag", async () => {
    mockFetch((url) => (url === "/api/books/7/placement" ? jsonResponse(200, placement) : jsonResponse(404, {})));
    renderWithApp(<BookSeriesAndTags bookId={7} />);
    expect(await screen.findByTestId("book-series")).toHaveTextContent("Volume 1 of The Long Road");
    expect(screen.getByRole("link", { name: "The Long Road" })).toHaveAttribute("href", "/series/3");
    expect(screen.getByRole("link", { name: "Volume 1.5: Halfway" })).toHaveAttribute("href", "/books/9-halfway");
    expect(screen.getByRole("heading", { name: "Next in The Long Road" })).toBeInTheDocument();
    const tags = within(screen.getByTestId("book-tags"));
    expect(tags.getByRole("link", { name: "Science Fiction" })).toHaveAttribute("href", "/catalog?tag=science-fiction");
  });

  it("shows nothing for a book in no series and without tags, and no next volume after the last", async () => {
    mockFetch((url) =>
      url === "/api/books/7/placement" ? jsonResponse(200, { series: null, next: null, tags: [] }) : jsonResponse(200, { ...placement, next: null }),
    );
    const { container } = renderWithApp(
      <>
        <BookSeriesAndTags bookId={7} />
        <NextInSeries bookId={8} />
      </>,
      { withToaster: false },
    );
    await waitFor(() => expect(container).toBeEmptyDOMElement());
  });
});

function FieldsForm({ onSubmit }: { onSubmit: (values: Record<string, unknown>) => void }) {
  const form = useForm({ defaultValues: { seriesId: "3", seriesVolume: "2", tags: "Road trip" } });
  return (
    <FormProvider {...form}>
      <form onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
        <SeriesAndTagsFields />
        <button type="submit">Send</button>
      </form>
    </FormProvider>
  );
}

describe("the forms' series and tags fields", () => {
  it("chooses the book's series once the author's list is read, adds tags from suggestions and removes them", async () => {
    mockFetch((url) => {
      if (url === "/api/account/series") return jsonResponse(200, ownSeries);
      if (url.startsWith("/api/tags?q=sci")) return jsonResponse(200, [{ slug: "science-fiction", name: "Science Fiction", books: 12 }]);
      return jsonResponse(200, []);
    });
    let sent: Record<string, unknown> = {};
    const { user } = renderWithApp(<FieldsForm onSubmit={(values) => (sent = values)} />);
    await waitFor(() => expect(screen.getByLabelText("Series")).toHaveValue("3"));
    expect(screen.getByLabelText("Volume")).toHaveValue("2");
    await user.type(screen.getByLabelText(/Tags/), "sci");
    await user.click(await screen.findByRole("button", { name: "Science Fiction (12 books)" }));
    await user.type(screen.getByLabelText(/Tags/), "Slow burn{Enter}");
    expect(within(screen.getByTestId("tag-chips")).getAllByRole("listitem").map((item) => item.textContent?.replace("×", ""))).toEqual(["Road trip", "Science Fiction", "Slow burn"]);
    await user.click(screen.getByRole("button", { name: "Remove the tag Road trip" }));
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(sent).toEqual({ seriesId: "3", seriesVolume: "2", tags: "Science Fiction, Slow burn" });
  });

  it("makes a new series from the form and chooses it", async () => {
    let created = false;
    mockFetch((url, init) => {
      if (url === "/api/series" && init?.method === "POST") {
        created = true;
        return jsonResponse(201, { ...ownSeries[0], id: 4, title: "Tides" });
      }
      if (url === "/api/account/series") return jsonResponse(200, created ? [...ownSeries, { ...ownSeries[0], id: 4, title: "Tides" }] : ownSeries);
      return jsonResponse(200, []);
    });
    const { user } = renderWithApp(<FieldsForm onSubmit={() => undefined} />);
    await user.click(await screen.findByTestId("new-series"));
    await user.type(screen.getByLabelText("Title of the new series"), "Tides{Enter}");
    await waitFor(() => expect(screen.getByLabelText("Series")).toHaveValue("4"));
  });
});

describe("the series page", () => {
  it("shows the series' title, author, description and volumes in order", async () => {
    const page: SeriesPageData = {
      id: 3,
      title: "The Long Road",
      description: "Three books of walking.",
      author: adasBook().author,
      volumes: [
        { volume: 1, book: adasBook({ id: 7, title: "Setting out" }) },
        { volume: 2, book: adasBook({ id: 8, title: "Home" }) },
      ],
    };
    mockFetch((url) => (url === "/api/series/3" ? jsonResponse(200, page) : jsonResponse(404, {})));
    renderWithApp(
      <Route path="/series/:id">
        <SeriesPage />
      </Route>,
      { path: "/series/3" },
    );
    expect(await screen.findByRole("heading", { level: 1, name: "The Long Road" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: ada.displayName! })).toHaveAttribute("href", `/authors/${ada.id}`);
    expect(screen.getByText("Three books of walking.")).toBeInTheDocument();
    const volumes = within(screen.getByTestId("series-volumes")).getAllByRole("listitem");
    expect(volumes.map((item) => item.textContent)).toEqual([expect.stringContaining("Volume 1"), expect.stringContaining("Volume 2")]);
    expect(within(volumes[1]!).getByRole("link")).toHaveAttribute("href", "/books/8-home");
    expect(screen.getByRole("link", { name: "Report" })).toHaveAttribute("href", `/report?author=${ada.id}&from=%2Fseries%2F3`);
  });

  it("shows the not-found screen for an unknown series", async () => {
    mockFetch(() => jsonResponse(404, { code: "not_found", message: "This series does not exist." }));
    renderWithApp(
      <Route path="/series/:id">
        <SeriesPage />
      </Route>,
      { path: "/series/99" },
    );
    expect(await screen.findByRole("heading", { level: 1 })).not.toHaveTextContent("The Long Road");
  });
});

describe("the dashboard's series", () => {
  it("creates a series, and refuses an empty title in words", async () => {
    const calls: Array<{ url: string; body: unknown }> = [];
    mockFetch((url, init) => {
      if (init?.method === "POST") {
        calls.push({ url, body: JSON.parse(String(init.body)) });
        return jsonResponse(201, { ...ownSeries[0], id: 5, title: "Tides" });
      }
      return jsonResponse(200, ownSeries);
    });
    const { user } = renderWithApp(<SeriesManager />);
    expect(await screen.findByRole("link", { name: "The Long Road" })).toHaveAttribute("href", "/series/3");
    const form = within(screen.getByTestId("new-series-form"));
    await user.click(form.getByRole("button", { name: "Create the series" }));
    expect(form.getByLabelText("Title")).toHaveAccessibleDescription("Give the series a title");
    await user.type(form.getByLabelText("Title"), "Tides");
    await user.click(form.getByRole("button", { name: "Create the series" }));
    await waitFor(() => expect(calls).toEqual([{ url: "/api/series", body: { title: "Tides", description: "" } }]));
  });
});
