import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { FollowButton } from "@/features/follows/follow-button";
import { UnsubscribePage } from "@/features/follows/unsubscribe-page";
import { authorId } from "@client-test/catalog-fixtures";
import { ada, anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const author = { id: authorId, displayName: "Mary Shelley" };
const TOKEN = `${ada.id}.${"A".repeat(43)}`;

describe("FollowButton", () => {
  it("leads a visitor to sign in and back", async () => {
    mockFetch((url) => (url === "/api/auth/user" ? anonymousResponse() : jsonResponse(404, { message: "Not found.", code: "not_found" })));
    renderWithApp(<FollowButton author={author} />, { path: "/authors/x" });
    expect(await screen.findByRole("link", { name: "Sign in to follow" })).toHaveAttribute("href", `/login?next=${encodeURIComponent("/authors/x")}`);
  });

  it("follows and unfollows for a signed-in reader, who is told each time", async () => {
    let following = false;
    const fetchMock = mockFetch((url, init) => {
      if (url === "/api/auth/user") return jsonResponse(200, ada);
      if (url === `/api/authors/${authorId}/follow`) {
        if (init?.method === "PUT") following = true;
        if (init?.method === "DELETE") following = false;
        return jsonResponse(200, { following, followerCount: null });
      }
      return jsonResponse(404, { message: "Not found.", code: "not_found" });
    });
    const { user } = renderWithApp(<FollowButton author={author} />);
    const button = await screen.findByTestId("follow-button");
    expect(button).toHaveAccessibleName("Follow Mary Shelley");
    await vi.waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    expect(await screen.findByRole("button", { name: "Following Mary Shelley" })).toHaveAttribute("data-following", "true");
    expect(fetchMock).toHaveBeenCalledWith(`/api/authors/${authorId}/follow`, expect.objectContaining({ method: "PUT" }));
    expect(await screen.findByText("You follow Mary Shelley: their new books will show on your home page.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Following Mary Shelley" }));
    expect(await screen.findByRole("button", { name: "Follow Mary Shelley" })).toHaveAttribute("data-following", "false");
    expect(fetchMock).toHaveBeenCalledWith(`/api/authors/${authorId}/follow`, expect.objectContaining({ method: "DELETE" }));
  });

  it("shows the author only how many follow them", async () => {
    mockFetch((url) => {
      if (url === "/api/auth/user") return jsonResponse(200, ada);
      if (url === `/api/authors/${ada.id}/follow`) return jsonResponse(200, { following: false, followerCount: 1234 });
      return jsonResponse(404, { message: "Not found.", code: "not_found" });
    });
    renderWithApp(<FollowButton author={{ id: ada.id, displayName: "Ada" }} />);
    expect(await screen.findByTestId("follower-count")).toHaveTextContent("1,234 followers");
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });
});

describe("UnsubscribePage", () => {
  it("says what will happen, and turns the digest off only when asked", async () => {
    const fetchMock = mockFetch((url, init) => {
      if (url === "/api/auth/user") return anonymousResponse();
      if (url === `/unsubscribe?token=${encodeURIComponent(TOKEN)}` && init?.method === "POST") return jsonResponse(200, { digestFrequency: "off" });
      return jsonResponse(404, { message: "Not found.", code: "not_found" });
    });
    const { user } = renderWithApp(<UnsubscribePage />, { path: `/unsubscribe?token=${TOKEN}` });
    expect(await screen.findByText(/This turns off the mails about new books/)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith(expect.stringContaining("/unsubscribe"), expect.anything());
    await user.click(screen.getByRole("button", { name: "Stop the mails" }));
    expect(await screen.findByTestId("unsubscribe-done")).toHaveTextContent("you will not get digest mails any more");
  });

  it("says so of a broken link", async () => {
    mockFetch((url) => (url === "/api/auth/user" ? anonymousResponse() : jsonResponse(404, { message: "Not found.", code: "not_found" })));
    renderWithApp(<UnsubscribePage />, { path: "/unsubscribe?token=broken" });
    expect(await screen.findByTestId("unsubscribe-invalid")).toHaveTextContent("This unsubscribe link is not valid.");
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });
});
