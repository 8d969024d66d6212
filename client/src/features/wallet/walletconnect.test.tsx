import type { PublicConfig } from "@shared/wallet";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WalletButton } from "@/features/wallet/wallet-button";
import { WalletProvider } from "@/features/wallet/wallet-provider";
import { resetWalletDiscovery } from "@/features/wallet/wallet-discovery";
import { createQueryClient } from "@/lib/query-client";
import { announceWallet, clearAnnouncedWallets, localChainConfig } from "@client-test/fake-ethereum";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";

// Which of WalletConnect's modules the page loaded: none of them without a project id.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock("@/features/wallet/walletconnect-option", async (importOriginal) => {
  loaded.add("option");
  return importOriginal();
});
// The SDK's session, replaced by a pairing that waits to be scanned until it is cancelled.
vi.mock("@/features/wallet/walletconnect-session", async () => {
  loaded.add("session");
  const { showPairing } = await import("@/features/wallet/walletconnect-state");
  return {
    openSession: () =>
      new Promise((_resolve, reject) => {
        showPairing({
          uri: "wc:0123abcd@2?relay-protocol=irn&symKey=4567",
          qrCode: "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E",
          cancel: () => {
            showPairing(null);
            reject(Object.assign(new Error("Connection cancelled."), { code: 4001 }));
          },
        });
      }),
  };
});

const WALLETCONNECT_ON: PublicConfig = { ...localChainConfig, walletConnect: { projectId: "0123456789abcdef0123456789abcdef", relayUrl: "wss://relay.walletconnect.org" } };

function renderWalletButton(config: PublicConfig) {
  mockFetch((url) => {
    if (url === "/api/auth/user") return jsonResponse(200, ada);
    if (url === "/api/config") return jsonResponse(200, config);
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <WalletProvider>
        <WalletButton />
      </WalletProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  clearAnnouncedWallets();
  resetWalletDiscovery();
});

// In this order: the modules, once loaded, stay loaded for the tests after.
describe("WalletConnect (docs/decisions/0109)", () => {
  it("shows nothing of WalletConnect, and loads none of it, when the operator set no project id", async () => {
    announceWallet("Rabby", "io.rabby");
    renderWalletButton(localChainConfig);

    expect(await screen.findByRole("button", { name: "Connect wallet" })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/WalletConnect/)).not.toBeInTheDocument();
    expect(loaded).toEqual(new Set());
  });

  it("offers WalletConnect beside the browser's wallets with a project id, and shows its pairing as a QR code to scan or a link to copy", async () => {
    announceWallet("Rabby", "io.rabby");
    // Its clipboard stands in for the browser's.
    const user = userEvent.setup();
    renderWalletButton(WALLETCONNECT_ON);

    const group = await screen.findByRole("group", { name: "Choose your wallet" });
    expect(await screen.findByRole("button", { name: "Connect WalletConnect" })).toBeInTheDocument();
    expect(group).toHaveTextContent("Connect Rabby");
    expect(loaded).toEqual(new Set(["option"]));

    await user.click(screen.getByRole("button", { name: "Connect WalletConnect" }));
    const dialog = await screen.findByRole("dialog", { name: "Connect a phone wallet" });
    expect(loaded).toEqual(new Set(["option", "session"]));
    expect(screen.getByRole("img", { name: "QR code of the connection link, for your wallet app" })).toHaveAttribute("src", expect.stringMatching(/^data:image\/svg\+xml,/));
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveFocus();

    await user.click(screen.getByRole("button", { name: "Copy link" }));
    expect(await navigator.clipboard.readText()).toBe("wc:0123abcd@2?relay-protocol=irn&symKey=4567");
    expect(screen.getByRole("button", { name: "Link copied" })).toBeInTheDocument();

    await user.keyboard("{Escape}");
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
  });

  it("names WalletConnect when it is the only wallet, on a computer without a wallet extension", async () => {
    renderWalletButton(WALLETCONNECT_ON);
    expect(await screen.findByRole("button", { name: "Connect WalletConnect" })).toBeInTheDocument();
    expect(screen.queryByText("Install MetaMask")).not.toBeInTheDocument();
  });
});
