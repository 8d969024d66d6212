import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { LoggedModerationDecision } from "@shared/moderation";
import type { NoticeGroup } from "@shared/notices";
import { callsTo, decisionLog, DECISION_LOG_URL, mockAdminApi, noticeQueue, NOTICES_URL } from "@client-test/admin-fixtures";
import { AdminPanel } from "@/features/admin/admin-panel";
import i18n from "@/lib/i18n";
import { jsonResponse } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const FACTS = "The reported book is a copy of Editorial Rosa's novel.";

function renderQueue(moderate = vi.fn((_url: string, _body: unknown) => jsonResponse(201, {}))) {
  const fetchMock = mockAdminApi({ notices: () => jsonResponse(200, noticeQueue), decisions: () => jsonResponse(200, decisionLog), moderate });
  const view = renderWithApp(<AdminPanel section="moderation" />, { path: "/admin/moderation" });
  return { ...view, fetchMock, moderate };
}

describe("the moderation tab", () => {
  it("lists the open notices grouped by book and author, with who sent them and when, and counts them on its tab", async () => {
    renderQueue();
    const groups = await screen.findAllByTestId("moderation-group");
    expect(groups).toHaveLength(2);
    const [book, account] = groups;
    expect(within(book!).getByRole("heading", { name: "Notes on the Analytical Engine" })).toBeInTheDocument();
    expect(book).toHaveTextContent("A book by Ada Lovelace");
    expect(book).toHaveTextContent("Minors: urgent");
    const [minors, copyright] = within(book!).getAllByTestId("moderation-notice");
    expect(minors).toHaveTextContent("Sexual content involving minors");
    expect(minors).toHaveTextContent("Sent byanonymous");
    expect(copyright).toHaveTextContent("Rosa Editora <rosa@example.test>");
    expect(copyright).toHaveTextContent("Editorial Rosa (sworn statement given)");
    expect(within(copyright!).getByRole("link", { name: "https://plume.example/books/7/read" })).toBeInTheDocument();
    expect(copyright).toHaveTextContent(/received .+ ago/);
    // The admin reads the book itself in the reader, where it is not counted.
    expect(within(book!).getByRole("link", { name: "Open the book in the reader (not counted)" })).toHaveAttribute("href", "/books/7/read");
    expect(within(book!).getAllByRole("button").map((button) => button.textContent)).toEqual([
      "Dismiss this notice",
      "Dismiss this notice",
      "Hide the book",
      "Remove the book",
      "Suspend the account",
    ]);
    expect(account).toHaveTextContent("The author as a whole");
    expect(within(account!).getByRole("button", { name: "Suspend the account" })).toBeInTheDocument();

    const tab = screen.getByRole("link", { name: /Moderation/ });
    expect(tab).toHaveAttribute("aria-current", "page");
    expect(tab).toHaveAccessibleName("Moderation 3 open notices");

    const log = await screen.findByTestId("moderation-log");
    expect(within(log).getByTestId("moderation-log-entry")).toHaveTextContent("Hidden while under review“Sketch of the Engine” (Ada Lovelace)");
    expect(within(log).getByTestId("moderation-log-entry")).toHaveTextContent("By admin");
  });

  it("asks for the ground and the facts before hiding, then sends the statement and reads the queue again", async () => {
    const { user, moderate, fetchMock } = renderQueue();
    const [book] = await screen.findAllByTestId("moderation-group");
    await user.click(within(book!).getByRole("button", { name: "Hide the book" }));

    const dialog = screen.getByRole("alertdialog", { name: "Hide “Notes on the Analytical Engine” while you review it?" });
    // What led to it is prefilled: the queue is notices.
    expect(within(dialog).getByRole("combobox", { name: "What led to it" })).toHaveValue("notice");
    await user.click(within(dialog).getByTestId("moderation-confirm"));
    expect(await within(dialog).findByText("Choose the clause of the terms or the law this decision rests on")).toBeInTheDocument();
    expect(within(dialog).getByText("Describe the facts this decision rests on (at least 10 characters)")).toBeInTheDocument();
    expect(moderate).not.toHaveBeenCalled();

    const queueReads = callsTo(fetchMock, NOTICES_URL);
    const logReads = callsTo(fetchMock, DECISION_LOG_URL);
    await user.selectOptions(within(dialog).getByRole("combobox", { name: "Ground" }), "law-copyright");
    await user.type(within(dialog).getByRole("textbox", { name: "The facts" }), FACTS);
    await user.click(within(dialog).getByTestId("moderation-confirm"));

    expect(await screen.findByText("“Notes on the Analytical Engine” is hidden.")).toBeInTheDocument();
    expect(moderate).toHaveBeenCalledWith("/api/admin/books/7/moderation", { action: "hide", ground: "law-copyright", facts: FACTS, basis: "notice" });
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    await vi.waitFor(() => expect(callsTo(fetchMock, NOTICES_URL)).toBeGreaterThan(queueReads));
    expect(callsTo(fetchMock, DECISION_LOG_URL)).toBeGreaterThan(logReads);
  });

  it("shows a reported review's words and removes it with a ground and the facts (docs/product.md#reviews)", async () => {
    const reviewGroup: NoticeGroup = {
      subject: { kind: "review", reviewId: 31, bookId: 7, title: "Notes on the Analytical Engine", text: "Buy cheap watches at example.test\nnow.", rating: 1, accountId: "7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f", accountName: "Lea Moreau" },
      urgent: false,
      oldestAt: "2025-03-04T08:00:00.000Z",
      notices: [{ id: 14, category: "spam", explanation: "This review is an advertisement.", url: "https://plume.example/books/7", reporterName: "Ana", reporterEmail: "ana@example.test", originalWork: null, rightsHolder: null, sworn: false, source: "form", createdAt: "2025-03-04T08:00:00.000Z" }],
    };
    const moderate = vi.fn((_url: string, _body: unknown) => jsonResponse(201, {}));
    mockAdminApi({ notices: () => jsonResponse(200, [reviewGroup]), decisions: () => jsonResponse(200, decisionLog), moderate });
    const { user } = renderWithApp(<AdminPanel section="moderation" />, { path: "/admin/moderation" });
    const [group] = await screen.findAllByTestId("moderation-group");
    expect(group).toHaveTextContent("Review by Lea Moreau of “Notes on the Analytical Engine”, 1 out of 5");
    expect(within(group!).getByTestId("moderation-review-text").textContent).toBe("Buy cheap watches at example.test\nnow.");
    await user.click(within(group!).getByRole("button", { name: "Remove the review" }));
    const dialog = screen.getByRole("alertdialog", { name: "Remove this review of “Notes on the Analytical Engine”?" });
    // A review's removal is a decision like a book's: what led to it is asked too, prefilled from the queue.
    expect(within(dialog).getByRole("combobox", { name: "What led to it" })).toHaveValue("notice");
    await user.selectOptions(within(dialog).getByRole("combobox", { name: "Ground" }), "terms-spam");
    await user.type(within(dialog).getByRole("textbox", { name: "The facts" }), "The review advertises watches.");
    await user.click(within(dialog).getByTestId("moderation-confirm"));
    expect(await screen.findByText("The review of “Notes on the Analytical Engine” is removed.")).toBeInTheDocument();
    expect(moderate).toHaveBeenCalledWith("/api/admin/reviews/31/moderation", { action: "remove", ground: "terms-spam", facts: "The review advertises watches.", basis: "notice" });
  });

  it("says a reported book was deleted by its author, without a reader link, and offers only its removal and the account's suspension (docs/decisions/0112)", async () => {
    const deleted: NoticeGroup = { ...noticeQueue[0]!, subject: { ...(noticeQueue[0]!.subject as Extract<NoticeGroup["subject"], { kind: "book" }>), deletedAt: "2025-03-05T08:00:00.000Z" } };
    mockAdminApi({ notices: () => jsonResponse(200, [deleted]), decisions: () => jsonResponse(200, decisionLog) });
    renderWithApp(<AdminPanel section="moderation" />, { path: "/admin/moderation" });
    const [group] = await screen.findAllByTestId("moderation-group");
    expect(group).toHaveTextContent("Deleted by its author");
    expect(within(group!).getByTestId("moderation-deleted-book")).toHaveTextContent(/^Its author deleted it on .*2025.*, with its files\. Its notices stay open/);
    expect(within(group!).queryByTestId("moderation-open-book")).not.toBeInTheDocument();
    expect(within(group!).getAllByRole("button", { name: /book|account/ }).map((button) => button.textContent)).toEqual(["Remove the book", "Suspend the account"]);
  });

  it("shows a review's removal in the log with its book, writer and first words, and restores it from there (docs/decisions/0111)", async () => {
    const removal: LoggedModerationDecision = {
      ...decisionLog.decisions[0]!,
      id: 5,
      action: "remove-review",
      bookId: 7,
      bookTitle: "Notes on the Analytical Engine",
      reviewId: 31,
      accountName: "Lea Moreau",
      facts: "The review advertises watches.",
      reviewExcerpt: "Buy cheap watches at example.test now.",
      inEffect: true,
    };
    const restored: LoggedModerationDecision = { ...removal, id: 3, inEffect: false, reviewExcerpt: null };
    const moderate = vi.fn((_url: string, _body: unknown) => jsonResponse(201, {}));
    mockAdminApi({ decisions: () => jsonResponse(200, { ...decisionLog, decisions: [removal, restored] }), moderate });
    const { user } = renderWithApp(<AdminPanel section="moderation" />, { path: "/admin/moderation" });
    const [entry, older] = await screen.findAllByTestId("moderation-log-entry");
    expect(entry).toHaveTextContent("Review removedReview by Lea Moreau of “Notes on the Analytical Engine”");
    expect(within(entry!).getByTestId("moderation-log-review")).toHaveTextContent("Buy cheap watches at example.test now.");
    // A removal no longer in force, of a review its writer deleted since, offers nothing.
    expect(older).toHaveTextContent("The review was deleted by its writer since.");
    expect(within(older!).queryByRole("button")).toBeNull();

    await user.click(within(entry!).getByRole("button", { name: "Restore the review" }));
    const dialog = screen.getByRole("alertdialog", { name: "Restore this review of “Notes on the Analytical Engine”?" });
    expect(within(dialog).queryByRole("combobox", { name: "Ground" })).toBeNull();
    expect(within(dialog).getByRole("combobox", { name: "What led to it" })).toHaveValue("own-initiative");
    await user.type(within(dialog).getByRole("textbox", { name: "The facts" }), "On a second reading the link is the writer's own blog.");
    await user.click(within(dialog).getByTestId("moderation-confirm"));
    expect(await screen.findByText("The review of “Notes on the Analytical Engine” is restored.")).toBeInTheDocument();
    expect(moderate).toHaveBeenCalledWith("/api/admin/reviews/31/moderation", {
      action: "restore",
      facts: "On a second reading the link is the writer's own blog.",
      basis: "own-initiative",
    });
  });

  it("dismisses one notice with the reasons its sender is told", async () => {
    const { user, moderate } = renderQueue();
    const [book] = await screen.findAllByTestId("moderation-group");
    const [, copyright] = within(book!).getAllByTestId("moderation-notice");
    await user.click(within(copyright!).getByRole("button", { name: "Dismiss this notice" }));
    const dialog = screen.getByRole("alertdialog");
    expect(within(dialog).queryByRole("combobox")).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole("textbox", { name: "Why this notice leads to no restriction" }), "The author holds the rights, as the contract shows.");
    await user.click(within(dialog).getByTestId("moderation-confirm"));
    await screen.findByText("The notice about “Notes on the Analytical Engine” is dismissed.");
    expect(moderate).toHaveBeenCalledWith("/api/admin/notices/12/dismiss", { facts: "The author holds the rights, as the contract shows." });
  });

  it("keeps the dialog open and says why when the server refuses the decision", async () => {
    const moderate = vi.fn(() => jsonResponse(409, { message: "This book is already hidden or removed.", code: "moderation_conflict" }));
    const { user } = renderQueue(moderate);
    const [book] = await screen.findAllByTestId("moderation-group");
    await user.click(within(book!).getByRole("button", { name: "Hide the book" }));
    const dialog = screen.getByRole("alertdialog");
    await user.selectOptions(within(dialog).getByRole("combobox", { name: "Ground" }), "terms-spam");
    await user.type(within(dialog).getByRole("textbox", { name: "The facts" }), FACTS);
    await user.click(within(dialog).getByTestId("moderation-confirm"));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("This book is already hidden or removed.");
  });

  it("says when nothing is open, and speaks fr", async () => {
    await i18n.changeLanguage("fr");
    mockAdminApi();
    renderWithApp(<AdminPanel section="moderation" />, { path: "/admin/moderation" });
    expect(await screen.findByText("Aucun signalement ouvert. Tout ce qui a été signalé a été décidé.")).toBeInTheDocument();
    expect(await screen.findByText("Aucune décision n'a encore été prise.")).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Sections d'administration" })).toBeInTheDocument();
    expect(screen.getByTestId("admin-panel").textContent).not.toMatch(/\badmin\.\w/);
  });
});
