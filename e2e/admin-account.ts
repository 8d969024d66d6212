import type { APIRequestContext } from "playwright-core";
import { expect, inject } from "vitest";
import { linkMailedTo } from "../test/helpers/mail-files.ts";

/** The e2e server's ADMIN_EMAIL (e2e/test-server.ts). */
const ADMIN_EMAIL = "admin@plume.test";
const ADMIN_PASSWORD = "a-good-password";
const ADMIN_USERNAME = "plume_admin";

/**
 * Signs the request's browser context in as the admin. Every journey file of a run shares one server,
 * so whichever comes first registers the account (its username is taken for the others: 409) and proves
 * its address through the link the server mailed, opened in the session registering made (admin
 * rights need it, docs/product.md#roles and docs/decisions/0054); the others sign in to it.
 */
export async function signInAsAdmin(request: APIRequestContext): Promise<void> {
  const registered = await request.post("/api/auth/register", {
    data: { firstName: "Ada", lastName: "Admin", username: ADMIN_USERNAME, email: ADMIN_EMAIL, password: ADMIN_PASSWORD, confirmPassword: ADMIN_PASSWORD },
  });
  if (registered.status() !== 409) {
    expect(registered.status()).toBe(201);
    const token = (await linkMailedTo(inject("mailDir"), ADMIN_EMAIL)).searchParams.get("token");
    expect((await request.post("/api/auth/verify-email", { data: { token } })).status()).toBe(200);
    return;
  }
  const signedIn = await request.post("/api/auth/login", { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  expect(signedIn.status()).toBe(200);
}
