import type { AppealForReview } from "@shared/appeals";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ModerationAppeals } from "@/features/admin/moderation-appeals";
import { jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const counterNotice: AppealForReview = {
  id: 5,
  kind: "counter-notice",
  status: "open",
  createdAt: "2026-11-21T09:00:00.000Z",
  decidedAt: null,
  outcomeFacts: null,
  statement: "I wrote this novel; the reporter confused it with another.",
  legalName: "Ada Lovelace",
  postalAddress: "12 St James's Square, London",
  phone: "+44 20 7946 0000",
  decision: { id: 3, action: "remove", ground: "law-copyright", facts: "A rights holder says this is their novel.", createdAt: "2026-11-20T10:00:00.000Z" },
  book: { id: 7, title: "The Lighthouse" },
  review: null,
  account: { id: "7b0c4a1e-0000-4000-8000-000000000001", name: "Ada Lovelace" },
};

function mockAppeals(appeals: AppealForReview[]) {
  let open = appeals;
  return mockFetch((url, init) => {
    if (url === "/api/admin/appeals") return jsonResponse(200, open);
    if (url === "/api/admin/appeals/5/decision" && init?.method === "POST") {
      const { outcome, facts } = JSON.parse(String(init.body)) as { outcome: "granted" | "rejected"; facts: string };
      open = [];
      return jsonResponse(200, { ...counterNotice, status: outcome, decidedAt: "2026-11-22T09:00:00.000Z", outcomeFacts: facts });
    }
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}

describe("ModerationAppeals", () => {
  it("shows a counter-notice with the decision it contests and the identity the DMCA asks for", async () => {
    mockAppeals([counterNotice]);
    renderWithApp(<ModerationAppeals />);
    const card = await screen.findByTestId("admin-appeal");
    expect(within(card).getByText("Counter-notice")).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "The Lighthouse" })).toHaveAttribute("href", expect.stringContaining("/books/7"));
    expect(within(card).getByText(/Removed — The law: copyright infringement/)).toBeInTheDocument();
    expect(within(card).getByText("Ada Lovelace, 12 St James's Square, London, +44 20 7946 0000")).toBeInTheDocument();
  });

  it("asks for the reasons before granting, then sends the outcome and empties the queue", async () => {
    const fetchMock = mockAppeals([counterNotice]);
    const { user } = renderWithApp(<ModerationAppeals />);
    const card = await screen.findByTestId("admin-appeal");
    await user.click(within(card).getByRole("button", { name: "Grant and restore the book" }));
    expect(await within(card).findByText("Describe the facts this decision rests on (at least 10 characters)")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith("/decision"))).toBe(false);

    await user.type(within(card).getByLabelText(/Your reasons/), "The author showed a signed publishing contract.");
    await user.click(within(card).getByRole("button", { name: "Grant and restore the book" }));
    expect(await screen.findByText("No appeal is waiting.")).toBeInTheDocument();
    const sent = fetchMock.mock.calls.find(([url]) => String(url) === "/api/admin/appeals/5/decision")!;
    expect(JSON.parse(String(sent[1]!.body))).toEqual({ outcome: "granted", facts: "The author showed a signed publishing contract." });
  });

  it("says so when no appeal waits", async () => {
    mockAppeals([]);
    renderWithApp(<ModerationAppeals />);
    expect(await screen.findByText("No appeal is waiting.")).toBeInTheDocument();
  });
});
