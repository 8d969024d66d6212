import { type DownloadReport, type DownloadTally, emptyTally } from "@shared/download-report";
import type { UseQueryResult } from "@tanstack/react-query";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DownloadReportPanel } from "@/features/dashboard/download-report";
import i18n from "@/lib/i18n";
import { renderWithApp } from "@client-test/render";

function tally(counted: number, notCounted: Partial<DownloadTally["notCounted"]> = {}): DownloadTally {
  const reasons = { ...emptyTally().notCounted, ...notCounted };
  return { logged: counted + Object.values(reasons).reduce((sum, value) => sum + value, 0), counted, notCounted: reasons };
}

const MONTHS = ["2025-01", "2025-02", "2025-03"];

const report: DownloadReport = {
  months: MONTHS,
  books: [
    {
      bookId: 7,
      title: "The Lighthouse",
      deleted: false,
      months: [
        { month: "2025-01", ...tally(1200, { "own-book": 1 }) },
        { month: "2025-03", ...tally(20, { "repeat-reader": 4, "address-cap": 2 }) },
      ],
      total: tally(1220, { "own-book": 1, "repeat-reader": 4, "address-cap": 2 }),
    },
    {
      bookId: 9,
      title: "Old Notes",
      deleted: true,
      months: [{ month: "2025-03", ...tally(0, { unpublished: 1, "no-address": 1, unrecorded: 3 }) }],
      total: tally(0, { unpublished: 1, "no-address": 1, unrecorded: 3 }),
    },
  ],
};

/** The component reads only these fields of the query. */
function query(state: Partial<UseQueryResult<DownloadReport>>): UseQueryResult<DownloadReport> {
  return { data: undefined, isPending: false, isError: false, ...state } as UseQueryResult<DownloadReport>;
}

/** Downloads, counted, not counted, then each reason with its figure. */
function figures(region: HTMLElement): string[] {
  const numbers = ["report-logged", "report-counted", "report-not-counted"].map((id) => within(region).getByTestId(id).textContent ?? "");
  const reasons = [...region.querySelectorAll("[data-reason]")].map((row) => `${row.querySelector("dt")?.textContent}: ${row.querySelector("dd")?.textContent}`);
  return [...numbers, ...reasons];
}

describe("Downloads by book", () => {
  it("explains every figure of every book, and of all books together, over the report's months", () => {
    renderWithApp(<DownloadReportPanel report={query({ data: report })} />);

    const total = screen.getByTestId("download-report-total");
    expect(within(total).getByRole("heading", { name: "All your books" })).toBeInTheDocument();
    expect(figures(total)).toEqual([
      "1,232",
      "1,220",
      "12",
      "Book was unpublished: 1",
      "Your own download: 1",
      "Reader had already downloaded it: 4",
      "No network address: 1",
      "Too many from one network that day: 2",
      "Before reasons were recorded: 3",
    ]);

    const [lighthouse, oldNotes] = screen.getAllByTestId("download-report-book");
    expect(within(lighthouse!).getByRole("heading", { name: "The Lighthouse" })).toBeInTheDocument();
    expect(figures(lighthouse!)).toEqual(["1,227", "1,220", "7", "Your own download: 1", "Reader had already downloaded it: 4", "Too many from one network that day: 2"]);
    expect(within(oldNotes!).getByRole("heading", { name: "Old Notes Deleted" })).toBeInTheDocument();
    expect(figures(oldNotes!)).toEqual(["5", "0", "5", "Book was unpublished: 1", "No network address: 1", "Before reasons were recorded: 3"]);
    expect(oldNotes).toHaveTextContent("Why some did not count");
  });

  it("offers the months with downloads only, newest first, and shows one month's books", async () => {
    const { user } = renderWithApp(<DownloadReportPanel report={query({ data: report })} />);

    const period = screen.getByRole("combobox", { name: "Period" });
    expect(within(period).getAllByRole("option").map((option) => option.textContent)).toEqual(["Last 3 months", "March 2025", "January 2025"]);

    await user.selectOptions(period, "2025-01");
    const books = screen.getAllByTestId("download-report-book");
    expect(books).toHaveLength(1);
    expect(figures(books[0]!)).toEqual(["1,201", "1,200", "1", "Your own download: 1"]);
    // One book: its figures are the totals, not repeated.
    expect(screen.queryByTestId("download-report-total")).not.toBeInTheDocument();
  });

  it("says there is nothing yet when no book was downloaded, and shows no selector", () => {
    renderWithApp(<DownloadReportPanel report={query({ data: { months: MONTHS, books: [] } })} />);

    expect(screen.getByTestId("download-report-empty")).toHaveTextContent("No downloads in the last 3 months.");
    expect(screen.queryByRole("combobox")).not.toBeInTheDocument();
    expect(screen.queryByTestId("download-report-total")).not.toBeInTheDocument();
  });

  it("says so while loading and when the report could not be loaded", () => {
    const { unmount } = renderWithApp(<DownloadReportPanel report={query({ isPending: true })} />);
    expect(screen.getByTestId("download-report")).toHaveTextContent("Loading");
    unmount();

    renderWithApp(<DownloadReportPanel report={query({ isError: true })} />);
    expect(screen.getByTestId("download-report")).toHaveTextContent("We could not load your downloads by book.");
  });

  it.each(["es", "fr"] as const)("speaks %s, numbers and months included", async (language) => {
    await i18n.changeLanguage(language);
    renderWithApp(<DownloadReportPanel report={query({ data: report })} />);

    const [lighthouse] = screen.getAllByTestId("download-report-book");
    // The matcher folds the element's spaces, French narrow no-break ones included, not those it is given.
    const number = new Intl.NumberFormat(language).format(1227).replace(/\s/g, " ");
    expect(within(lighthouse!).getByTestId("report-logged")).toHaveTextContent(number);
    expect(lighthouse).toHaveTextContent(i18n.t("dashboard.report.reason.own-book"));
    const month = new Intl.DateTimeFormat(language, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(2025, 2, 1)));
    expect(screen.getByRole("option", { name: month })).toBeInTheDocument();
  });
});
