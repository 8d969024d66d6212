import { moderationActions } from "@shared/moderation";
import { noticeCategories } from "@shared/notices";
import { type TransparencyMonth, type TransparencyReport, noticeOutcomes, zeroCounts } from "@shared/transparency";
import type { PublicConfig } from "@shared/wallet";
import { act, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "@/App";
import i18n from "@/lib/i18n";
import { localChainConfig } from "@client-test/fake-ethereum";
import { anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

function renderInfoPage(path: string, config: Partial<PublicConfig> = {}, transparency?: TransparencyReport) {
  vi.stubGlobal("scrollTo", vi.fn());
  mockFetch((url) => {
    if (url === "/api/auth/user") return anonymousResponse();
    if (url === "/api/config") return jsonResponse(200, { ...localChainConfig, ...config });
    if (url === "/api/transparency" && transparency) return jsonResponse(200, transparency);
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
  return renderWithApp(<App />, { path, withToaster: false });
}

describe("The info pages", () => {
  it("explain the rules with the numbers in force, in the reader's language, and name themselves in the tab", async () => {
    await i18n.changeLanguage("es");
    renderInfoPage("/help", { rewards: { promoCutoff: "2999-01-01T00:00:00.000Z", countedPerAddressPerDay: 5 } });

    const page = await screen.findByTestId("info-page-help");
    expect(within(page).getByRole("heading", { level: 1, name: "Cómo funciona Plume" })).toBeInTheDocument();
    const counting = within(page).getByRole("region", { name: "Qué descargas cuentan" });
    expect(counting).toHaveTextContent("menos de 5 descargas contadas del libro");
    expect(within(page).getByRole("region", { name: "Cómo ganan PME los autores" })).toHaveTextContent("1 PME cada 20 descargas contadas: uno al llegar a 20, otro a 40");
    expect(page).toHaveTextContent("Oferta del primer libro: hasta el 1 de enero de 2999");
    expect(document.title).toBe("Cómo funciona Plume · Plume");
  });

  it("leave the first-book offer out once it has ended", async () => {
    renderInfoPage("/help", { rewards: { promoCutoff: "2001-01-01T00:00:00.000Z", countedPerAddressPerDay: 3 } });
    const page = await screen.findByTestId("info-page-help");
    expect(page).toHaveTextContent("fewer than 3 counted downloads");
    expect(page).not.toHaveTextContent("First-book offer");
  });

  it("link to each other, the current one marked", async () => {
    await i18n.changeLanguage("fr");
    const { user } = renderInfoPage("/privacy");
    const nav = await screen.findByRole("navigation", { name: "À propos de Plume" });
    expect(within(nav).getByRole("link", { name: "Confidentialité" })).toHaveAttribute("aria-current", "page");
    await user.click(within(nav).getByRole("link", { name: "Guide de l'auteur" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Guide de l'auteur" })).toBeInTheDocument();
    expect(screen.getByTestId("info-page-authorGuide")).toHaveTextContent("PDF, DOC, DOCX ou EPUB de 50 Mo au plus");
  });

  it("follow a switch of language while shown, fetching that language's texts", async () => {
    await i18n.changeLanguage("es");
    renderInfoPage("/terms");
    expect(await screen.findByRole("heading", { level: 1, name: "Condiciones de uso" })).toBeInTheDocument();
    await act(() => i18n.changeLanguage("fr"));
    expect(await screen.findByRole("heading", { level: 1, name: "Conditions d'utilisation" })).toBeInTheDocument();
    await act(() => i18n.changeLanguage("es"));
    expect(await screen.findByRole("heading", { level: 1, name: "Condiciones de uso" })).toBeInTheDocument();
  });

  it("say so when what they need cannot be loaded", async () => {
    vi.stubGlobal("scrollTo", vi.fn());
    mockFetch((url) => (url === "/api/auth/user" ? anonymousResponse() : jsonResponse(503, { message: "Busy.", code: "server_busy" })));
    renderWithApp(<App />, { path: "/terms", withToaster: false });
    const message = await screen.findByText("Something went wrong. Please try again.");
    expect(message).toHaveAttribute("role", "alert");
  });

  it("give the configured contact address as a mailto link, and say so when there is none", async () => {
    renderInfoPage("/contact", { contactEmail: "hello@plume.example" });
    expect(await screen.findByRole("link", { name: "hello@plume.example" })).toHaveAttribute("href", "mailto:hello@plume.example");
  });

  it("say there is no contact address when none is configured, and invent none", async () => {
    renderInfoPage("/contact");
    const address = await screen.findByTestId("contact-address");
    expect(address).toHaveTextContent("This Plume has not published a contact address yet.");
    expect(within(address).queryByRole("link")).not.toBeInTheDocument();
  });

  it("name the designated contact for notices on the terms page, with the repeat-infringer policy", async () => {
    const legalContact = "Plume Legal\n1 Rue de la Paix, 75002 Paris";
    renderInfoPage("/terms", { legalContact, contactEmail: "legal@plume.example" });
    const terms = await screen.findByTestId("designated-contact");
    expect(terms).toHaveTextContent("Plume Legal 1 Rue de la Paix, 75002 Paris");
    expect(within(terms).getByRole("link", { name: "legal@plume.example" })).toHaveAttribute("href", "mailto:legal@plume.example");
    expect(screen.getByRole("region", { name: "Repeat infringers" })).toHaveTextContent("three of its books removed for copyright infringement");
  });

  it("say on the terms page that no designated contact is named yet, and invent none", async () => {
    renderInfoPage("/terms");
    const contact = await screen.findByTestId("designated-contact");
    expect(contact).toHaveTextContent("This Plume has not named a designated contact yet");
    expect(within(contact).queryByRole("link")).not.toBeInTheDocument();
  });

  it("show the transparency report month by month, newest first, in the reader's number format, with zeros for a quiet month and the median time in minutes, hours or days", async () => {
    await i18n.changeLanguage("fr");
    const quiet = (month: string): TransparencyMonth => ({
      month,
      noticesByCategory: zeroCounts(noticeCategories),
      noticesByOutcome: zeroCounts(noticeOutcomes),
      decisionsByAction: zeroCounts(moderationActions),
      medianSecondsToDecision: null,
    });
    const busy: TransparencyMonth = {
      ...quiet("2026-02"),
      noticesByCategory: { ...zeroCounts(noticeCategories), copyright: 1200, spam: 34 },
      noticesByOutcome: { open: 4, actioned: 1000, dismissed: 230, "writer-deleted": 7 },
      decisionsByAction: { ...zeroCounts(moderationActions), hide: 12, restore: 3 },
      medianSecondsToDecision: 5.5 * 3600,
    };
    renderInfoPage("/transparency", {}, { generatedAt: "2026-02-20T00:00:00.000Z", months: [{ ...quiet("2025-12"), medianSecondsToDecision: 3 * 86_400 }, { ...quiet("2026-01"), medianSecondsToDecision: 90 }, busy] });

    const outcomes = await screen.findByRole("table", { name: "Signalements reçus et leur issue" });
    const [, newest, quietest, oldest] = within(outcomes).getAllByRole("row");
    expect(within(newest!).getAllByRole("cell").map((cell) => cell.textContent)).toEqual(["1\u202f241", "4", "1\u202f000", "230", "7", "5,5 h"]);
    expect(within(newest!).getByRole("rowheader")).toHaveTextContent("février 2026");
    expect(within(quietest!).getAllByRole("cell").map((cell) => cell.textContent)).toEqual(["0", "0", "0", "0", "0", "2 min"]);
    expect(within(oldest!).getAllByRole("cell").at(-1)).toHaveTextContent("3,0 jours");
    const categories = screen.getByRole("table", { name: "Signalements par catégorie" });
    expect(within(categories).getByRole("columnheader", { name: "Atteinte au droit d’auteur" })).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Mesures prises" })).toHaveTextContent("12");
    expect(document.title).toBe("Rapport de transparence · Plume");
  });
});
