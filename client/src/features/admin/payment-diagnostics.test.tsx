import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import {
  bookDiagnostics,
  callsTo,
  DIAGNOSTICS_URL,
  FIX_URL,
  mockAdminApi,
  adminPage,
  BOOKS_URL,
} from "@client-test/admin-fixtures";
import { AdminPanel } from "@/features/admin/admin-panel";
import i18n from "@/lib/i18n";
import { jsonResponse } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const unmarkedBook = bookDiagnostics({
  bookId: 12,
  bookTitle: "Sketch of the Engine",
  authorName: null,
  authorEmail: null,
  canReceiveFirstBookBonus: false,
  issues: ["not_marked_as_first_book", "no_wallet_address"],
  authorFirstBookId: null,
});

type User = ReturnType<typeof renderWithApp>["user"];

/** The fix, asked for and then confirmed in its dialog. */
async function markAsFirstBook(user: User, bookId: number) {
  await user.click(await screen.findByTestId(`fix-first-book-${bookId}`));
  await user.click(within(screen.getByRole("alertdialog")).getByTestId(`fix-first-book-confirm-${bookId}`));
}

/** The diagnostics before the fix, and after it once the book is marked. */
function diagnosticsBeforeAndAfterFix() {
  let fixed = false;
  return {
    markFixed: () => (fixed = true),
    answer: () =>
      jsonResponse(200, adminPage([fixed ? { ...unmarkedBook, issues: ["no_wallet_address"] } : unmarkedBook])),
  };
}

async function findRow(bookId: number) {
  const rows = await screen.findAllByTestId("diagnostic-row");
  return rows.find((row) => row.dataset.bookId === String(bookId))!;
}

describe("Payment diagnostics", () => {
  it("shows each book with its author, figures, bonus answer and translated issues", async () => {
    mockAdminApi({
      books: () =>
        jsonResponse(
          200,
          adminPage([
              bookDiagnostics(),
              bookDiagnostics({ bookId: 8, issues: ["bonus_already_paid", "no_first_download_date", "after_cutoff_date"] }),
              unmarkedBook,
            ]),
        ),
    });
    renderWithApp(<AdminPanel section="books" />);

    const eligible = await findRow(7);
    expect(within(eligible).getByText("Notes on the Analytical Engine")).toBeInTheDocument();
    expect(eligible).toHaveTextContent("#7");
    expect(within(eligible).getByText("Ada Lovelace")).toBeInTheDocument();
    expect(within(eligible).getByText("ada@example.test")).toBeInTheDocument();
    expect(within(eligible).getByRole("cell", { name: "42" })).toBeInTheDocument();
    expect(within(eligible).getByRole("cell", { name: "2" })).toBeInTheDocument();
    expect(within(eligible).getByText("Yes")).toBeInTheDocument();
    expect(within(eligible).getByText("None")).toBeInTheDocument();
    expect(within(eligible).queryByRole("button")).not.toBeInTheDocument();

    const issueTexts = (row: HTMLElement) => within(row).getAllByRole("listitem").map((chip) => chip.textContent);
    expect(issueTexts(await findRow(8))).toEqual([
      "Bonus already paid",
      "No counted download yet",
      "Second download after the promotion ended",
    ]);
    const unmarked = await findRow(12);
    expect(issueTexts(unmarked)).toEqual(["Not marked as first book", "No wallet address"]);
    expect(within(unmarked).getByText("No")).toBeInTheDocument();
    expect(within(unmarked).getByText("No name given")).toBeInTheDocument();
    expect(screen.getByTestId("admin-diagnostics").textContent).not.toMatch(/\badmin\.|not_marked|_/);
  });

  it("translates the issues", async () => {
    await i18n.changeLanguage("es");
    mockAdminApi({ books: () => jsonResponse(200, adminPage([unmarkedBook])) });
    renderWithApp(<AdminPanel section="books" />);

    const row = await findRow(12);
    expect(within(row).getByText("No marcado como primer libro")).toBeInTheDocument();
    expect(within(row).getByText("Sin dirección de wallet")).toBeInTheDocument();
    expect(within(row).getByRole("button", { name: "Marcar como primer libro" })).toBeInTheDocument();
  });

  it("marks a book as first book, says how many payments are now owed and refreshes both admin reads", async () => {
    const diagnostics = diagnosticsBeforeAndAfterFix();
    let answerFix: (response: Response) => void = () => {};
    const fixBodies: unknown[] = [];
    const fetchMock = mockAdminApi({
      books: diagnostics.answer,
      fixFirstBookFlag: (body) => {
        fixBodies.push(body);
        return new Promise((resolve) => (answerFix = resolve));
      },
    });
    const { user } = renderWithApp(<AdminPanel section="books" />);

    const button = await screen.findByTestId("fix-first-book-12");
    expect(button).toHaveAccessibleName("Mark as first book");
    expect(button).toHaveAccessibleDescription("Sketch of the Engine");
    await user.click(button);
    // Nothing is sent before the admin confirms.
    const dialog = screen.getByRole("alertdialog", { name: "Mark “Sketch of the Engine” as its author's first book?" });
    expect(dialog).toHaveAccessibleDescription(/An author has one first book/);
    expect(fixBodies).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Mark as first book" }));

    expect(fixBodies).toEqual([{ bookId: 12, setAsFirstBook: true }]);
    expect(fetchMock).toHaveBeenCalledWith(FIX_URL, expect.objectContaining({ method: "POST", credentials: "include" }));
    expect(button).toBeDisabled();
    expect(button).toHaveTextContent("Marking…");

    diagnostics.markFixed();
    answerFix(jsonResponse(200, { bookId: 12, firstBook: true, paymentsOwed: 1 }));

    const toast = await screen.findByText("Marked as first book");
    expect(toast.closest("[role=status]")).toHaveTextContent("“Sketch of the Engine” now counts as its author's first book. 1 payment now owed.");
    await vi.waitFor(() => expect(screen.queryByTestId("fix-first-book-12")).not.toBeInTheDocument());
    expect(callsTo(fetchMock, BOOKS_URL)).toBe(2);
    expect(callsTo(fetchMock, DIAGNOSTICS_URL)).toBe(2);
  });

  it("counts the owed payments with each language's plural forms", async () => {
    mockAdminApi({
      books: () => jsonResponse(200, adminPage([unmarkedBook])),
      fixFirstBookFlag: () => jsonResponse(200, { bookId: 12, firstBook: true, paymentsOwed: 2 }),
    });
    const { user } = renderWithApp(<AdminPanel section="books" />);
    await markAsFirstBook(user, 12);
    expect(await screen.findByText(/2 payments now owed\./)).toBeInTheDocument();

    expect(i18n.t("admin.diagnostics.fix.paymentsOwed", { count: 0 })).toBe("0 payments now owed.");
    expect(i18n.t("admin.diagnostics.fix.paymentsOwed", { count: 1, lng: "es" })).toBe("Ahora se debe 1 pago.");
    // Spanish and French have a "many" plural form for round millions: it must not fall back to English.
    expect(i18n.t("admin.diagnostics.fix.paymentsOwed", { count: 1_000_000, lng: "es" })).toBe("Ahora se deben 1000000 pagos.");
    expect(i18n.t("admin.diagnostics.fix.paymentsOwed", { count: 1_000_000, lng: "fr" })).toBe("1000000 paiements sont désormais dus.");
  });

  it("leaves the owed payments out of the toast when none became due", async () => {
    mockAdminApi({ books: () => jsonResponse(200, adminPage([unmarkedBook])) });
    const { user } = renderWithApp(<AdminPanel section="books" />);
    await markAsFirstBook(user, 12);

    const toast = await screen.findByText("Marked as first book");
    expect(toast.closest("[role=status]")).toHaveTextContent(/first book\.$/);
  });

  it("shows 'Error updating' when the fix fails without a message", async () => {
    mockAdminApi({
      books: () => jsonResponse(200, adminPage([unmarkedBook])),
      fixFirstBookFlag: () => Promise.reject(new TypeError("Failed to fetch")),
    });
    const { user } = renderWithApp(<AdminPanel section="books" />);
    const button = await screen.findByTestId("fix-first-book-12");
    await markAsFirstBook(user, 12);

    const toast = await screen.findByText("Error updating");
    expect(toast.closest("[role=alert]")).toHaveTextContent("Error");
    expect(button).toBeEnabled();
  });

  it("sends nothing when the admin cancels the dialog", async () => {
    const fixBodies: unknown[] = [];
    mockAdminApi({
      books: () => jsonResponse(200, adminPage([unmarkedBook])),
      fixFirstBookFlag: (body) => {
        fixBodies.push(body);
        return jsonResponse(200, { bookId: 12, firstBook: true, paymentsOwed: 0 });
      },
    });
    const { user } = renderWithApp(<AdminPanel section="books" />);
    await user.click(await screen.findByTestId("fix-first-book-12"));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Cancel" }));

    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByTestId("fix-first-book-12")).toHaveFocus();
    expect(fixBodies).toEqual([]);
  });

  it("offers no fix for a book whose author already has a first book, and names that book", async () => {
    await i18n.changeLanguage("fr");
    mockAdminApi({ books: () => jsonResponse(200, adminPage([{ ...unmarkedBook, authorFirstBookId: 7 }])) });
    renderWithApp(<AdminPanel section="books" />);

    const row = await findRow(12);
    expect(within(row).queryByRole("button")).not.toBeInTheDocument();
    expect(within(row).getByTestId("first-book-of-author-12")).toHaveTextContent("Premier livre : n° 7");
  });

  it("says why when the server refuses a second first book for the author, and refreshes the rows", async () => {
    await i18n.changeLanguage("es");
    const fetchMock = mockAdminApi({
      books: () => jsonResponse(200, adminPage([unmarkedBook])),
      fixFirstBookFlag: () => jsonResponse(409, { message: "This author already has a first book (#7).", code: "first_book_taken" }),
    });
    const { user } = renderWithApp(<AdminPanel section="books" />);
    await markAsFirstBook(user, 12);

    const message = await screen.findByText("Este autor ya tiene un primer libro. Cada autor tiene uno solo, así que el bono se paga una vez.");
    expect(message.closest("[role=alert]")).toHaveTextContent("Error");
    await vi.waitFor(() => expect(callsTo(fetchMock, DIAGNOSTICS_URL)).toBe(2));
  });

  it("shows the server's message when the fix is refused", async () => {
    await i18n.changeLanguage("es");
    mockAdminApi({
      books: () => jsonResponse(200, adminPage([unmarkedBook])),
      fixFirstBookFlag: () => jsonResponse(404, { message: "This book does not exist.", code: "not_found" }),
    });
    const { user } = renderWithApp(<AdminPanel section="books" />);
    await markAsFirstBook(user, 12);

    const message = await screen.findByText(i18n.t("errors.not_found"));
    expect(message.closest("[role=alert]")).toHaveTextContent("Error");
  });

  it("shows what a removed book had already paid, which cannot be taken back, and what its removal cancelled", async () => {
    mockAdminApi({
      books: () =>
        jsonResponse(
          200,
          adminPage([
              bookDiagnostics({ moderationState: "removed-legal", paidAmount: "3.00", cancelledAmount: "1.00" }),
              bookDiagnostics({ bookId: 8, moderationState: null }),
            ]),
        ),
    });
    renderWithApp(<AdminPanel section="books" />);

    const removed = await findRow(7);
    const note = within(removed).getByTestId("diagnostic-moderation");
    expect(note).toHaveTextContent("Removed on a legal ground");
    expect(note).toHaveTextContent("PME paid: 3.00 PME");
    expect(note).toHaveTextContent("PME cancelled: 1.00 PME");
    expect(note).toHaveTextContent("Already on the author's wallet: PME sent cannot be taken back.");
    expect(within(await findRow(8)).queryByTestId("diagnostic-moderation")).not.toBeInTheDocument();
  });
});
