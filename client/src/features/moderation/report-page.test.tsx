import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ReportPage } from "@/features/moderation/report-page";
import { makeBook } from "@client-test/catalog-fixtures";
import { anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const book = makeBook({ id: 7, title: "The Lighthouse Keeper's Ledger" });

function mockServer() {
  return mockFetch((url, init) => {
    if (url === "/api/auth/user") return anonymousResponse();
    if (url === "/api/books/7") return jsonResponse(200, book);
    if (url === "/api/notices" && init?.method === "POST") return jsonResponse(201, { id: 42, receivedAt: "2026-11-28T10:00:00.000Z" });
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}

const sentBody = (fetchMock: ReturnType<typeof mockServer>) => {
  const call = fetchMock.mock.calls.find(([url]) => url === "/api/notices");
  return call ? (JSON.parse(String(call[1]?.body)) as Record<string, unknown>) : undefined;
};

describe("ReportPage", () => {
  it("reports a book as copyright infringement, asking for the original work and the sworn statement, then gives the reference", async () => {
    const fetchMock = mockServer();
    const { user } = renderWithApp(<ReportPage />, { path: "/report?book=7&from=%2Fbooks%2F7-the-lighthouse" });
    expect(await screen.findByRole("heading", { level: 1, name: "Report “The Lighthouse Keeper's Ledger”" })).toBeInTheDocument();
    expect(screen.getByLabelText(/Where you saw it/)).toHaveValue(`${window.location.origin}/books/7-the-lighthouse`);

    await user.click(screen.getByTestId("report-category-copyright"));
    await user.type(screen.getByLabelText(/Explain what is wrong/), "This is my novel, copied page for page.");
    await user.type(screen.getByLabelText(/The original work/), "The Ledger, 2019, ISBN 978-0-00-000000-0");
    await user.type(screen.getByLabelText(/The rights holder/), "Marea Books");
    await user.type(screen.getByLabelText(/Your name/), "Ana Lectora");
    await user.type(screen.getByLabelText(/Your e-mail address/), "ana@example.test");
    await user.click(screen.getByRole("button", { name: "Send the notice" }));
    // Nothing goes out without the sworn statement and good faith.
    expect(await screen.findByText("Confirm the sworn statement")).toBeInTheDocument();
    expect(screen.getByText("Confirm that you send this notice in good faith")).toBeInTheDocument();
    expect(sentBody(fetchMock)).toBeUndefined();

    await user.click(screen.getByLabelText(/I swear, under penalty of perjury/));
    await user.click(screen.getByTestId("report-good-faith"));
    await user.click(screen.getByRole("button", { name: "Send the notice" }));
    expect(await screen.findByRole("heading", { name: "Thank you: your notice was received" })).toBeInTheDocument();
    expect(screen.getByText("Its reference is #42. A person at Plume will look at it.")).toBeInTheDocument();
    expect(screen.getByText(/We sent an acknowledgement to ana@example.test/)).toBeInTheDocument();
    expect(sentBody(fetchMock)).toMatchObject({
      category: "copyright",
      bookId: 7,
      originalWork: "The Ledger, 2019, ISBN 978-0-00-000000-0",
      rightsHolder: "Marea Books",
      sworn: true,
      goodFaith: true,
      email: "ana@example.test",
    });
  });

  it("reports a review: the third subject beside a book and an author (docs/product.md#reviews)", async () => {
    const fetchMock = mockServer();
    const { user } = renderWithApp(<ReportPage />, { path: "/report?review=31&from=%2Fbooks%2F7-the-lighthouse" });
    expect(await screen.findByRole("heading", { level: 1, name: "Report a review" })).toBeInTheDocument();
    await user.click(screen.getByTestId("report-category-spam"));
    await user.type(screen.getByLabelText(/Explain what is wrong/), "This review is an advertisement for watches.");
    await user.type(screen.getByLabelText(/Your name/), "Ana Lectora");
    await user.type(screen.getByLabelText(/Your e-mail address/), "ana@example.test");
    await user.click(screen.getByTestId("report-good-faith"));
    await user.click(screen.getByRole("button", { name: "Send the notice" }));
    expect(await screen.findByRole("heading", { name: "Thank you: your notice was received" })).toBeInTheDocument();
    expect(sentBody(fetchMock)).toMatchObject({ category: "spam", reviewId: 31, url: `${window.location.origin}/books/7-the-lighthouse` });
    expect(sentBody(fetchMock)).not.toHaveProperty("bookId");
  });

  it("lets a notice of sexual content involving minors go without a name or an e-mail address", async () => {
    const fetchMock = mockServer();
    const { user } = renderWithApp(<ReportPage />, { path: "/report?book=7&from=%2Fbooks%2F7" });
    await user.click(await screen.findByTestId("report-category-minors"));
    expect(screen.getByLabelText(/Your name/)).not.toBeRequired();
    await user.type(screen.getByLabelText(/Explain what is wrong/), "Chapter three describes abuse of a child.");
    await user.click(screen.getByTestId("report-good-faith"));
    await user.click(screen.getByRole("button", { name: "Send the notice" }));
    expect(await screen.findByText(/You gave no e-mail address/)).toBeInTheDocument();
    expect(sentBody(fetchMock)).toMatchObject({ category: "minors", bookId: 7 });
    expect(sentBody(fetchMock)?.email).toBeUndefined();
  });

  it("keeps another site's address out of the form", async () => {
    mockServer();
    renderWithApp(<ReportPage />, { path: "/report?book=7&from=https%3A%2F%2Fevil.example%2Fx" });
    expect(await screen.findByLabelText(/Where you saw it/)).toHaveValue(window.location.origin);
  });

  it("says how to open the form when it names nothing to report", async () => {
    mockServer();
    renderWithApp(<ReportPage />, { path: "/report" });
    expect(await screen.findByText(/Open this form from the book or the author you want to report/)).toBeInTheDocument();
  });
});
