import type { CurrentUser } from "@shared/auth";
import type { BookCard, MonthlyDownloads } from "@shared/books";
import { type DownloadReport, emptyTally } from "@shared/download-report";
import type { DecisionForAuthor } from "@shared/appeals";
import type { AuthorPayment, PublicConfig } from "@shared/wallet";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import i18n from "@/lib/i18n";
import { DashboardPage } from "@/features/dashboard/dashboard-page";
import { bookBy } from "@client-test/catalog-fixtures";
import { installEthereum, localChainConfig, READER_ACCOUNT, READER_ACCOUNT_CHECKSUMMED } from "@client-test/fake-ethereum";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

// The admin tab's content belongs to the admin panel's own tests; here only whether it is offered matters.
vi.mock("@/features/admin/admin-panel", () => ({ AdminPanel: () => <p>Admin overview</p> }));

const HASH = `0x${"ab".repeat(32)}`;

let nextPaymentId = 1;
function payment(overrides: Partial<AuthorPayment> = {}): AuthorPayment {
  return {
    id: nextPaymentId++,
    amount: "1.00",
    status: "completed",
    triggeredAt: "2026-02-03T10:00:00.000Z",
    completedAt: "2026-02-03T10:05:00.000Z",
    transactionHash: HASH,
    bookId: 7,
    bookTitle: "The Lighthouse",
    kind: "milestone",
    milestone: 1,
    sentAt: "2026-02-03T10:01:00.000Z",
    waiting: null,
    failureReason: null,
    cancellation: null,
    ...overrides,
  };
}

const months: MonthlyDownloads[] = Array.from({ length: 12 }, (_, index) => ({
  month: `2025-${String(index + 1).padStart(2, "0")}`,
  downloads: index === 10 ? 30 : index,
}));

interface DashboardServer {
  user?: CurrentUser;
  books?: BookCard[];
  payments?: AuthorPayment[];
  report?: DownloadReport;
  config?: PublicConfig;
  deleteStatus?: number;
  decisions?: DecisionForAuthor[];
}

const emptyReport: DownloadReport = { months: ["2026-01", "2026-02"], books: [] };

function mockServer({
  user = ada,
  books = [bookBy(ada, { id: 7, title: "The Lighthouse", downloadCount: 27 })],
  payments = [],
  report = emptyReport,
  config = localChainConfig,
  deleteStatus = 204,
  decisions = [],
}: DashboardServer = {}) {
  let currentBooks = books;
  return mockFetch((url, init) => {
    if (url === "/api/auth/user") return jsonResponse(200, user);
    if (url === "/api/config") return jsonResponse(200, config);
    if (url === `/api/authors/${user.id}/books`) return jsonResponse(200, currentBooks);
    if (url === `/api/authors/${user.id}/stats`) return jsonResponse(200, { totalDownloads: 1234, monthlyDownloads: months });
    if (url === `/api/authors/${user.id}/payments`) return jsonResponse(200, payments);
    if (url === `/api/authors/${user.id}/download-report`) return jsonResponse(200, report);
    if (url === "/api/moderation/decisions") return jsonResponse(200, decisions);
    if (url.startsWith("/api/moderation/decisions/") && init?.method === "POST") {
      const sent = JSON.parse(String(init.body)) as { kind: "appeal" | "counter-notice" };
      const appeal = { id: 9, kind: sent.kind, status: "open" as const, createdAt: "2026-11-21T09:00:00.000Z", decidedAt: null, outcomeFacts: null };
      decisions = decisions.map((decision) => (url === `/api/moderation/decisions/${decision.id}/appeal` ? { ...decision, appeal, contest: null } : decision));
      return jsonResponse(201, appeal);
    }
    if (url === "/api/account/storage") return jsonResponse(200, { usedBytes: currentBooks.reduce((sum, book) => sum + book.fileSize, 0), limitBytes: 1024 ** 3 });
    if (url === "/api/wallet/nonce" && init?.method === "POST") {
      return jsonResponse(200, { nonce: "0123456789abcdef0123456789abcdef", walletAddress: READER_ACCOUNT_CHECKSUMMED, chainId: config.token.chainId, expiresAt: "2026-11-26T05:00:00.000Z" });
    }
    if (url === "/api/wallet/connect" && init?.method === "POST") return jsonResponse(200, { ...user, walletAddress: READER_ACCOUNT_CHECKSUMMED });
    if (url.startsWith("/api/books/") && init?.method === "DELETE") {
      if (deleteStatus !== 204) return jsonResponse(deleteStatus, { message: "Something went wrong.", code: "internal_error" });
      currentBooks = currentBooks.filter((book) => url !== `/api/books/${book.id}`);
      return new Response(null, { status: 204 });
    }
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}

describe("DashboardPage", () => {
  it("counts only completed payments toward the earnings, floored to whole PME", async () => {
    mockServer({
      payments: [payment(), payment({ amount: "1.00" }), payment({ status: "pending", completedAt: null, transactionHash: null }), payment({ status: "completed", amount: "0.50" })],
    });
    renderWithApp(<DashboardPage />, { withWallet: true });

    await waitFor(() => expect(screen.getByTestId("earnings-value")).toHaveTextContent(/^2$/));
    expect(screen.getByText("From 3 completed payments")).toBeInTheDocument();
    expect(await screen.findByText("1.2K")).toBeInTheDocument();
  });

  it("says up front what is owed, and that PME waiting for a wallet is kept safely, with the wallet beside it", async () => {
    const owedToWallet = { status: "pending" as const, completedAt: null, sentAt: null, transactionHash: null, waiting: { reason: "no-wallet" as const } };
    mockServer({ payments: [payment({ ...owedToWallet, id: 11 }), payment({ ...owedToWallet, id: 12 }), payment({ status: "completed" })] });
    renderWithApp(<DashboardPage />, { withWallet: true });

    expect(await screen.findByTestId("owed-value")).toHaveTextContent("2 PME owed to you waits, safely, until you connect a wallet.");
    expect(screen.getByTestId("earnings-value")).toHaveTextContent(/^1$/);
    const call = screen.getByTestId("owed-wallet-call");
    expect(within(call).getByRole("heading")).toHaveTextContent("2 PME waits for you");
    expect(within(call).getByTestId("owed-wallet-button")).toBeInTheDocument();
  });

  it("says owed PME on its way without asking for a wallet once one is saved", async () => {
    mockServer({ payments: [payment({ status: "pending", completedAt: null, transactionHash: null, waiting: { reason: "sending" } })] });
    renderWithApp(<DashboardPage />, { withWallet: true });

    expect(await screen.findByTestId("owed-value")).toHaveTextContent("1 PME owed to you is on its way.");
    expect(screen.queryByTestId("owed-wallet-call")).not.toBeInTheDocument();
  });

  it("shows the latest 5 payments with a coloured dot, a label and what earned them", async () => {
    mockServer({
      payments: [
        payment({ status: "completed" }),
        payment({ status: "pending", transactionHash: null, completedAt: null }),
        payment({ status: "failed", transactionHash: null, completedAt: null, kind: "first-book-bonus", milestone: null }),
        payment(),
        payment(),
        payment(),
      ],
    });
    renderWithApp(<DashboardPage />, { withWallet: true });

    const items = await within(await screen.findByTestId("recent-payments")).findAllByTestId("payment-item");
    expect(items).toHaveLength(5);
    const [completed, pending, failed] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(completed).toHaveAttribute("data-status", "completed");
    expect(completed).toHaveTextContent("Completed");
    expect(completed).toHaveTextContent("1.00 PME");
    expect(completed).toHaveTextContent("The Lighthouse · Milestone 1");
    expect(within(completed).getByTestId("payment-status-dot")).toHaveClass("bg-emerald-600");
    expect(pending).toHaveTextContent("Pending");
    expect(within(pending).getByTestId("payment-status-dot")).toHaveClass("bg-amber-400");
    expect(failed).toHaveTextContent("Failed");
    expect(failed).toHaveTextContent("First-book bonus");
    expect(within(failed).getByTestId("payment-status-dot")).toHaveClass("bg-red-600");
  });

  it("links a sent payment to the block explorer, or shows its hash where there is none", async () => {
    mockServer({
      payments: [payment()],
      config: { ...localChainConfig, token: { ...localChainConfig.token, explorerUrl: "https://polygonscan.com" } },
    });
    const { unmount } = renderWithApp(<DashboardPage />, { withWallet: true });

    const link = await screen.findByTestId("payment-explorer-link");
    expect(link).toHaveAttribute("href", `https://polygonscan.com/tx/${HASH}`);
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
    unmount();

    mockServer({ payments: [payment()] });
    renderWithApp(<DashboardPage />, { withWallet: true });
    const hash = await screen.findByTestId("payment-hash");
    expect(hash).toHaveAttribute("title", HASH);
    expect(hash).toHaveTextContent("0xabababab…abababab");
  });

  it("explains the downloads per book, read from the author's report", async () => {
    mockServer({
      report: {
        months: ["2026-01", "2026-02"],
        books: [
          {
            bookId: 7,
            title: "The Lighthouse",
            deleted: false,
            months: [{ month: "2026-02", logged: 3, counted: 2, notCounted: { ...emptyTally().notCounted, "own-book": 1 } }],
            total: { logged: 3, counted: 2, notCounted: { ...emptyTally().notCounted, "own-book": 1 } },
          },
        ],
      },
    });
    renderWithApp(<DashboardPage />, { withWallet: true });

    const book = await screen.findByTestId("download-report-book");
    expect(within(book).getByTestId("report-counted")).toHaveTextContent("2");
    expect(book).toHaveTextContent("Your own download1");
  });

  const hiding: DecisionForAuthor = {
    id: 3,
    action: "hide",
    bookId: 7,
    bookTitle: "The Lighthouse",
    reviewId: null,
    accountId: ada.id,
    ground: "law-copyright",
    basis: "notice",
    facts: "A rights holder says this is their novel.",
    createdAt: "2026-11-20T10:00:00.000Z",
    appeal: null,
    contest: { kind: "counter-notice", until: "2027-05-22T10:00:00.000Z" },
  };

  it("marks a restricted book and shows the statements of reasons, with how to contest a restriction", async () => {
    const restore: DecisionForAuthor = { ...hiding, id: 4, action: "restore", ground: null, facts: "The notice was withdrawn.", contest: null };
    const suspension: DecisionForAuthor = { ...hiding, id: 2, action: "suspend", bookId: null, bookTitle: null, ground: "terms-spam", contest: null };
    mockServer({
      books: [bookBy(ada, { id: 7, title: "The Lighthouse", downloadCount: 27, moderationState: "hidden" })],
      decisions: [restore, hiding, suspension],
      config: { ...localChainConfig, contactEmail: "legal@plume.example" },
    });
    renderWithApp(<DashboardPage />, { withWallet: true });

    const badge = await screen.findByTestId("moderation-state");
    expect(badge).toHaveTextContent("Hidden while under review Why?");
    expect(badge).toHaveAttribute("href", "#moderation-decisions");
    const statements = await screen.findAllByTestId("moderation-statement");
    expect(statements.map((statement) => statement.dataset.action)).toEqual(["restore", "hide", "suspend"]);
    const hidden = within(statements[1]!);
    expect(hidden.getByText("The law: copyright infringement")).toBeInTheDocument();
    expect(hidden.getByText("a notice someone sent us")).toBeInTheDocument();
    expect(hidden.getByText("A rights holder says this is their novel.")).toBeInTheDocument();
    expect(hidden.getByText(/Contest it here until May 22, 2027/)).toBeInTheDocument();
    expect(hidden.getByRole("button", { name: "Send a counter-notice" })).toBeInTheDocument();
    // A suspended account writes to the contact address; lifting a restriction has nothing to contest.
    expect(within(statements[2]!).getByRole("link", { name: "legal@plume.example" })).toHaveAttribute("href", "mailto:legal@plume.example");
    expect(within(statements[0]!).queryByRole("link")).toBeNull();
    expect(within(statements[0]!).queryByRole("button")).toBeNull();
  });

  it("sends a counter-notice only with the DMCA's statements, then shows it under review", async () => {
    const fetchMock = mockServer({ decisions: [hiding] });
    const { user } = renderWithApp(<DashboardPage />, { withWallet: true });

    await user.click(await screen.findByRole("button", { name: "Send a counter-notice" }));
    const form = screen.getByRole("form", { name: "Counter-notice for “The Lighthouse”" });
    await user.click(within(form).getByRole("button", { name: "Send the counter-notice" }));
    expect(await within(form).findByText("Say why the decision is wrong, in at least 20 characters.")).toBeInTheDocument();
    expect(within(form).getByText("A counter-notice needs the sworn statement.")).toBeInTheDocument();
    expect(within(form).getByText("Give a telephone number: digits, spaces, +, -, ( and ).")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith("/appeal"))).toBe(false);

    await user.type(within(form).getByLabelText(/Why the decision is wrong/), "I wrote this novel; the reporter confused it with another.");
    await user.type(within(form).getByLabelText(/Your full legal name/), "Ada Lovelace");
    await user.type(within(form).getByLabelText(/Your postal address/), "12 St James's Square, London");
    await user.type(within(form).getByLabelText(/Your telephone number/), "+44 20 7946 0000");
    await user.click(within(form).getByLabelText(/under penalty of perjury/));
    await user.click(within(form).getByLabelText(/I consent to the jurisdiction/));
    await user.click(within(form).getByRole("button", { name: "Send the counter-notice" }));

    expect(await screen.findByTestId("appeal-state")).toHaveTextContent("You sent a counter-notice on Nov 21, 2026");
    const sent = fetchMock.mock.calls.find(([url]) => String(url) === "/api/moderation/decisions/3/appeal")!;
    expect(JSON.parse(String(sent[1]!.body))).toMatchObject({ kind: "counter-notice", legalName: "Ada Lovelace", swornMistake: true, consentJurisdiction: true });
  });

  it("shows a reader who never published the removal of their review, above the invitation, with the way to appeal it (docs/decisions/0111)", async () => {
    const reviewRemoval: DecisionForAuthor = {
      ...hiding,
      id: 6,
      action: "remove-review",
      reviewId: 31,
      ground: "terms-spam",
      facts: "The review advertises watches.",
      contest: { kind: "appeal", until: "2027-05-22T10:00:00.000Z" },
    };
    mockServer({ books: [], decisions: [reviewRemoval] });
    const { user } = renderWithApp(<DashboardPage />, { withWallet: true });

    const [statement] = await screen.findAllByTestId("moderation-statement");
    expect(statement).toHaveTextContent("Review removed · About your review of “The Lighthouse”");
    expect(statement).toHaveTextContent("The review advertises watches.");
    await user.click(within(statement!).getByRole("button", { name: "Appeal this decision" }));
    expect(screen.getByRole("form", { name: "Appeal the decision about “The Lighthouse”" })).toBeInTheDocument();
  });

  it("shows no progress toward a PME on a removed book, which can earn none", async () => {
    mockServer({ books: [bookBy(ada, { id: 7, title: "The Lighthouse", downloadCount: 27, moderationState: "removed-legal" })] });
    renderWithApp(<DashboardPage />, { withWallet: true });
    expect(await screen.findByTestId("removed-earns-nothing")).toHaveTextContent("it earns no more PME");
    expect(screen.queryByText(/more downloads? to/i)).toBeNull();
  });

  it("shows no moderation section to an author nothing was decided about", async () => {
    mockServer();
    renderWithApp(<DashboardPage />, { withWallet: true });
    await screen.findByText("The Lighthouse");
    expect(screen.queryByRole("heading", { name: "Moderation decisions" })).toBeNull();
  });

  it("lists the author's books with their progress to the next PME and an edit link", async () => {
    mockServer();
    renderWithApp(<DashboardPage />, { withWallet: true });

    const [row] = await screen.findAllByTestId("author-book");
    expect(row).toHaveTextContent("The Lighthouse");
    expect(row).toHaveTextContent("Novel");
    expect(row).toHaveTextContent("Published Jan 10, 2026");
    expect(row).toHaveTextContent("27 counted downloads");
    expect(row).toHaveTextContent("13 more counted downloads to your next PME");
    expect(within(row!).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "7");
    expect(within(row!).getByRole("link", { name: "Edit: The Lighthouse" })).toHaveAttribute("href", "/edit-book/7");
    expect(within(row!).getByRole("link", { name: "New edition: The Lighthouse" })).toHaveAttribute("href", "/edit-book/7#new-edition");
  });

  it("invites a reader who has not published to, and shows the author tools only when asked, then for good", async () => {
    mockServer({ books: [], payments: [] });
    const { user, unmount } = renderWithApp(<DashboardPage />, { withWallet: true });

    const invitation = await screen.findByRole("region", { name: "Do you write?" });
    expect(within(invitation).getByRole("link", { name: "Publish your first book" })).toHaveAttribute("href", "/upload");
    expect(invitation).toHaveTextContent("Your figures, payments and wallet appear here once you publish a book.");
    expect(screen.queryByTestId("earnings-value")).not.toBeInTheDocument();
    expect(screen.queryByText(/Install MetaMask/)).not.toBeInTheDocument();

    await user.click(within(invitation).getByRole("button", { name: "Show the author tools" }));
    expect(await screen.findByRole("heading", { name: "You have not published a book yet" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Upload my first book" })).toHaveAttribute("href", "/upload");
    expect(screen.getByTestId("earnings-value")).toBeInTheDocument();
    // The focus goes where the button was: to the tools it revealed.
    expect(screen.getByRole("tabpanel", { name: "Author" }).contains(document.activeElement)).toBe(true);
    expect(screen.queryByRole("region", { name: "Do you write?" })).not.toBeInTheDocument();
    unmount();

    renderWithApp(<DashboardPage />, { withWallet: true });
    expect(await screen.findByTestId("earnings-value")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Do you write?" })).not.toBeInTheDocument();
  });

  it("shows the author tools to an account whose only book was deleted but which has payments", async () => {
    mockServer({ books: [], payments: [payment({ status: "pending", completedAt: null, sentAt: null, transactionHash: null, waiting: { reason: "no-wallet" } })] });
    renderWithApp(<DashboardPage />, { withWallet: true });

    expect(await screen.findByTestId("earnings-value")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Do you write?" })).not.toBeInTheDocument();
  });

  it("deletes a book only after confirmation, then says so", async () => {
    const fetchMock = mockServer();
    const { user } = renderWithApp(<DashboardPage />, { withWallet: true });
    const deleteButton = await screen.findByTestId("delete-book-7");

    await user.click(deleteButton);
    const dialog = screen.getByRole("alertdialog", { name: "Delete this book?" });
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(deleteButton).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalledWith("/api/books/7", expect.objectContaining({ method: "DELETE" }));

    await user.click(deleteButton);
    await user.tab();
    expect(screen.getByTestId("confirm-delete")).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.click(screen.getByTestId("confirm-delete"));

    expect(fetchMock).toHaveBeenCalledWith("/api/books/7", expect.objectContaining({ method: "DELETE" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Book deleted");
    await waitFor(() => expect(screen.queryByTestId("author-book")).not.toBeInTheDocument());
    expect(screen.getByRole("heading", { name: "Your books" })).toHaveFocus();
  });

  it("shows what the author's books keep of their storage, and the space a deleted book frees", async () => {
    mockServer({ books: [bookBy(ada, { id: 7, fileSize: 30 * 1024 * 1024 }), bookBy(ada, { id: 8, fileSize: 90 * 1024 * 1024 })] });
    const { user } = renderWithApp(<DashboardPage />, { withWallet: true });

    const storage = await screen.findByRole("region", { name: "Storage" });
    expect(within(storage).getByRole("meter")).toHaveAccessibleName("Using 120 MB of 1 GB");
    await user.click(await screen.findByTestId("delete-book-8"));
    await user.click(screen.getByTestId("confirm-delete"));
    await waitFor(() => expect(within(storage).getByRole("meter")).toHaveAccessibleName("Using 30 MB of 1 GB"));
  });

  it("says so when the book cannot be deleted", async () => {
    mockServer({ deleteStatus: 500 });
    const { user } = renderWithApp(<DashboardPage />, { withWallet: true });

    await user.click(await screen.findByTestId("delete-book-7"));
    await user.click(screen.getByTestId("confirm-delete"));

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Error");
    expect(alert).toHaveTextContent("Something went wrong on our side.");
    expect(screen.getByTestId("author-book")).toBeInTheDocument();
  });

  it("draws the monthly downloads as an image with a summary and a table of the figures", async () => {
    mockServer();
    renderWithApp(<DashboardPage />, { withWallet: true });

    // The chart's code is loaded lazily, and transformed on its first use in the test run.
    const chart = await screen.findByRole("img", { name: /Counted downloads per month over the last 12 months: 86 in total/ }, { timeout: 3000 });
    expect(chart).toHaveAccessibleName(expect.stringContaining("November 2025, with 30"));
    const table = screen.getByRole("table", { name: "Counted downloads per month" });
    expect(within(table).getAllByRole("row")).toHaveLength(13);
  });

  it("shows the token contract, and the button that adds PME to the wallet only once a wallet is connected", async () => {
    mockServer();
    renderWithApp(<DashboardPage />, { withWallet: true });

    expect(await screen.findByTestId("token-address")).toHaveTextContent(localChainConfig.token.address);
    expect(screen.queryByTestId("add-token-button")).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "PME token contract on Plume (local chain)" })).toBeInTheDocument();

    cleanup();
    installEthereum().authorisedAccounts = [READER_ACCOUNT];
    mockServer();
    renderWithApp(<DashboardPage />, { withWallet: true });
    expect(await screen.findByTestId("add-token-button")).toHaveTextContent("Add PME to wallet");
  });

  it("names the local chain, which has no name of its own, in the reader's language", async () => {
    await i18n.changeLanguage("es");
    mockServer();
    renderWithApp(<DashboardPage />, { withWallet: true });
    expect(await screen.findByRole("heading", { name: "Contrato del token PME en Plume (cadena local)" })).toBeInTheDocument();
  });

  it("lets the author have payments sent to the account the wallet shows, when it is not the saved one", async () => {
    installEthereum().authorisedAccounts = [READER_ACCOUNT];
    const fetchMock = mockServer();
    const { user } = renderWithApp(<DashboardPage />, { withWallet: true });

    expect(await screen.findByText("No wallet saved yet. Connect one to receive your PME: payments wait until you do.")).toBeInTheDocument();
    // The wallet's account arrives once the extension has answered.
    expect(await screen.findByText("MetaMask uses the account 0x7099…79c8, which does not receive your payments.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Receive payments at this account" }));

    // The account the wallet shows is the one proven: the nonce is asked for it, then the signed message is sent.
    // The proof's message builder is fetched when the proof starts, so the calls are awaited.
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith("/api/wallet/nonce", expect.objectContaining({ body: JSON.stringify({ walletAddress: READER_ACCOUNT }) })));
    expect(await screen.findByRole("status")).toHaveTextContent("Wallet connected");
    expect(fetchMock).toHaveBeenCalledWith("/api/wallet/connect", expect.objectContaining({ body: expect.stringContaining(READER_ACCOUNT_CHECKSUMMED) }));
  });

  it("leads to the e-reader keys, which are in the settings", async () => {
    mockServer();
    renderWithApp(<DashboardPage />, { withWallet: true });
    expect(await screen.findByRole("link", { name: "Go to e-reader apps" })).toHaveAttribute("href", "/settings#e-readers");
    expect(screen.queryByTestId("tab-e-readers")).not.toBeInTheDocument();
  });

  it("offers the admin tab to the admin only", async () => {
    mockServer();
    const { unmount } = renderWithApp(<DashboardPage />, { withWallet: true });
    expect(await screen.findByTestId("tab-author")).toHaveAttribute("aria-selected", "true");
    expect(screen.queryByTestId("tab-admin")).not.toBeInTheDocument();
    unmount();

    const admin = { ...ada, isAdmin: true };
    mockServer({ user: admin });
    const { user } = renderWithApp(<DashboardPage />, { withWallet: true });
    const authorTab = await screen.findByTestId("tab-author");
    const adminTab = screen.getByTestId("tab-admin");
    expect(adminTab).toHaveAttribute("tabindex", "-1");

    expect(screen.getAllByRole("tab").map((tab) => tab.dataset.testid)).toEqual(["tab-author", "tab-admin"]);

    authorTab.focus();
    await user.keyboard("{End}");
    expect(adminTab).toHaveFocus();
    expect(adminTab).toHaveAttribute("aria-selected", "true");
    expect(await within(screen.getByRole("tabpanel", { name: "Admin" })).findByText("Admin overview")).toBeInTheDocument();

    await user.keyboard("{ArrowRight}");
    expect(authorTab).toHaveFocus();
    expect(screen.getByRole("tabpanel", { name: "Author" })).toBeInTheDocument();
  });
});
