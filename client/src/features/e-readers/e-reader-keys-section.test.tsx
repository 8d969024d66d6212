import type { CreatedEReaderKey, EReaderKey } from "@shared/e-reader-keys";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { EReaderKeysSection } from "@/features/e-readers/e-reader-keys-section";
import { jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const KEY = "7KQ2-M9XD-4T0P-HB3W";

/** The keys API in memory: what the section sends, and what it would get back. */
function fakeKeysApi({ tooMany = false } = {}) {
  const keys: EReaderKey[] = [];
  const fetchMock = mockFetch(async (url, init) => {
    const method = init?.method ?? "GET";
    if (url === "/api/e-reader-keys" && method === "GET") return jsonResponse(200, keys);
    if (url === "/api/e-reader-keys" && method === "POST") {
      if (tooMany) return jsonResponse(409, { message: "Too many.", code: "too_many_e_reader_keys" });
      const { name } = JSON.parse(String(init?.body)) as { name: string };
      const created: CreatedEReaderKey = { id: `key-${keys.length + 1}`, name, key: KEY, createdAt: "2026-11-26T10:00:00.000Z", lastUsedAt: null, revokedAt: null };
      const { key: _secret, ...listed } = created;
      keys.unshift(listed);
      return jsonResponse(201, created);
    }
    const revoked = keys.find((key) => url === `/api/e-reader-keys/${key.id}`);
    if (revoked && method === "DELETE") {
      revoked.revokedAt = "2026-11-27T10:00:00.000Z";
      return new Response(null, { status: 204 });
    }
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
  return { keys, fetchMock };
}

describe("EReaderKeysSection", () => {
  it("gives the catalog's absolute address to copy", async () => {
    fakeKeysApi();
    const { user } = renderWithApp(<EReaderKeysSection />);
    expect(screen.getByTestId("opds-catalog-url")).toHaveTextContent(`${window.location.origin}/opds`);
    await user.click(screen.getByRole("button", { name: "Copy the catalog address" }));
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/opds`);
    expect(await screen.findByText("Catalog address copied")).toBeInTheDocument();
  });

  it("gives KOReader's progress sync its server address", async () => {
    fakeKeysApi();
    renderWithApp(<EReaderKeysSection />);
    expect(screen.getByRole("heading", { name: "Reading progress with KOReader" })).toBeInTheDocument();
    expect(screen.getByTestId("kosync-server-url")).toHaveTextContent(`${window.location.origin}/kosync`);
    expect(screen.getByText(/Tools \(the wrench\) → Progress sync → Custom sync server/)).toBeInTheDocument();
  });

  it("checks the name with the shared rules before sending anything", async () => {
    const { fetchMock } = fakeKeysApi();
    const { user } = renderWithApp(<EReaderKeysSection />);
    await screen.findByText("You have no keys yet.");
    await user.click(screen.getByRole("button", { name: "Create key" }));
    expect(await screen.findByText("Give the device a name")).toBeInTheDocument();
    expect(screen.getByLabelText("Device name")).toHaveAttribute("aria-invalid", "true");
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === "POST")).toEqual([]);
  });

  it("shows a new key once, with its name, until the reader hides it; the list never shows it", async () => {
    fakeKeysApi();
    const { user } = renderWithApp(<EReaderKeysSection />);
    await user.type(screen.getByLabelText("Device name"), "Kobo Clara{Enter}");
    const shown = await screen.findByTestId("new-e-reader-key");
    expect(within(shown).getByRole("heading", { name: "Your key for Kobo Clara" })).toHaveFocus();
    expect(within(shown).getByTestId("new-e-reader-key-value")).toHaveTextContent(KEY);
    expect(screen.getByLabelText("Device name")).toHaveValue("");
    const row = await screen.findByTestId("e-reader-key");
    expect(row).toHaveTextContent("Kobo Clara");
    expect(row).toHaveTextContent("Never used");
    expect(row).not.toHaveTextContent(KEY);

    await user.click(within(shown).getByRole("button", { name: "Copy the key" }));
    expect(await navigator.clipboard.readText()).toBe(KEY);
    await user.click(screen.getByRole("button", { name: "Done, hide the key" }));
    expect(screen.queryByTestId("new-e-reader-key")).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(KEY);
  });

  it("revokes a key after confirmation, and stops showing it if it was the new one", async () => {
    fakeKeysApi();
    const { user } = renderWithApp(<EReaderKeysSection />);
    await user.type(screen.getByLabelText("Device name"), "Old Kindle{Enter}");
    const row = await screen.findByTestId("e-reader-key");

    await user.click(within(row).getByRole("button", { name: "Revoke: Old Kindle" }));
    const dialog = screen.getByRole("alertdialog", { name: "Revoke the key for Old Kindle?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(row).not.toHaveTextContent("Revoked");

    await user.click(within(row).getByRole("button", { name: "Revoke: Old Kindle" }));
    await user.click(screen.getByTestId("confirm-revoke-e-reader-key"));
    await waitFor(() => expect(screen.getByTestId("e-reader-key")).toHaveTextContent("Revoked"));
    expect(within(screen.getByTestId("e-reader-key")).queryByRole("button")).not.toBeInTheDocument();
    expect(screen.queryByTestId("new-e-reader-key")).not.toBeInTheDocument();
    expect(await screen.findByText("The key for Old Kindle is revoked")).toBeInTheDocument();
  });

  it("says so when the account already has its 20 keys", async () => {
    fakeKeysApi({ tooMany: true });
    const { user } = renderWithApp(<EReaderKeysSection />);
    await user.type(screen.getByLabelText("Device name"), "One more{Enter}");
    expect(await screen.findByText(/^You already have 20 keys in use\./)).toHaveAttribute("role", "alert");
    expect(screen.queryByTestId("new-e-reader-key")).not.toBeInTheDocument();
  });
});
