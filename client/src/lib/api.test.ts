import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import i18n from "@/lib/i18n";
import { ApiError, apiRequest, fetchQueryKey } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";

describe("apiRequest", () => {
  it("sends JSON with the session cookie", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, ada));
    const response = await apiRequest("POST", "/api/auth/login", { username: "ada", password: "secret1" });

    expect(await response.json()).toEqual(ada);
    expect(fetchMock).toHaveBeenCalledWith("/api/auth/login", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "ada", password: "secret1" }),
    });
  });

  it("sends no body and no content type when there is nothing to send", async () => {
    const fetchMock = mockFetch(() => new Response(null, { status: 204 }));
    await apiRequest("POST", "/api/auth/logout");
    expect(fetchMock).toHaveBeenCalledWith("/api/auth/logout", expect.objectContaining({ body: undefined, headers: undefined }));
  });

  it('fails with "<status>: <body text>" and keeps the parsed error body', async () => {
    const body = { message: "Username taken.", code: "username_taken", fields: { username: "errors.username_taken" } };
    mockFetch(() => jsonResponse(409, body));

    const error = await apiRequest("POST", "/api/auth/register", {}).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, body, message: `409: ${JSON.stringify(body)}` });
  });

  it("says how long a limit holds, from the 429's Retry-After, in the reader's language", async () => {
    const limited = (seconds: string) => () =>
      new Response(JSON.stringify({ message: "Too many sign-in attempts. Try again in 45 minutes.", code: "rate_limited" }), { status: 429, headers: { "Retry-After": seconds } });
    mockFetch(limited("2700"));
    const error = await apiRequest("POST", "/api/auth/login", {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 2700 });
    expect(errorText(error)).toBe("Too many attempts. Try again in 45 minutes.");

    mockFetch(limited("86400"));
    await i18n.changeLanguage("es");
    expect(errorText(await apiRequest("POST", "/api/auth/login", {}).catch((caught: unknown) => caught))).toBe("Demasiados intentos. Vuelve a intentarlo dentro de 24 horas.");
    await i18n.changeLanguage("fr");
    mockFetch(limited("30"));
    expect(errorText(await apiRequest("POST", "/api/auth/login", {}).catch((caught: unknown) => caught))).toBe("Trop de tentatives. Réessayez dans 1 minute.");
  });

  it("uses the status text when the body is empty, and has no parsed body when it is not the API's JSON", async () => {
    mockFetch(() => new Response("", { status: 502, statusText: "Bad Gateway" }));
    await expect(apiRequest("GET", "/api/books")).rejects.toMatchObject({ message: "502: Bad Gateway", body: null });

    mockFetch(() => new Response("<html>oops</html>", { status: 500 }));
    await expect(apiRequest("GET", "/api/books")).rejects.toMatchObject({ message: "500: <html>oops</html>", body: null });
  });
});

describe("fetchQueryKey", () => {
  const fetchWith = (queryFn: QueryFunction, queryKey: string[]) =>
    new QueryClient().fetchQuery({ queryKey, queryFn, retry: false });

  it("GETs the query key joined with slashes, with the session cookie", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, [{ id: 1 }]));
    await expect(fetchWith(fetchQueryKey, ["/api/authors", ada.id, "books"])).resolves.toEqual([{ id: 1 }]);
    expect(fetchMock).toHaveBeenCalledWith(`/api/authors/${ada.id}/books`, expect.objectContaining({ credentials: "include" }));
  });

  it("reads a null answer as null", async () => {
    mockFetch(() => jsonResponse(200, null));
    await expect(fetchWith(fetchQueryKey, ["/api/auth/user"])).resolves.toBeNull();
  });

  it("raises a 401", async () => {
    mockFetch(() => jsonResponse(401, { message: "Unauthorized", code: "unauthorized" }));
    await expect(fetchWith(fetchQueryKey, ["/api/account/sessions"])).rejects.toMatchObject({
      status: 401,
      message: '401: {"message":"Unauthorized","code":"unauthorized"}',
    });
  });
});

describe("errorText", () => {
  const apiError = (status: number, code: string, message: string) =>
    new ApiError(status, JSON.stringify({ message, code }), { message, code });

  it("translates the error code in the reader's language", async () => {
    const error = apiError(401, "invalid_credentials", "Invalid username, e-mail or password.");
    expect(errorText(error)).toBe("Invalid username, email or password.");
    await i18n.changeLanguage("es");
    expect(errorText(error)).toBe("Usuario, email o contraseña incorrectos.");
  });

  it("adds the reference under which the server logged an unexpected error", async () => {
    const requestId = "0b6f3c1e-8d1e-4c55-9a43-2f3f1b1d9e10";
    const error = new ApiError(500, "{}", { message: "Something went wrong.", code: "internal_error", requestId });
    expect(errorText(error)).toBe(`Something went wrong on our side. Please try again. Reference: ${requestId}`);
    await i18n.changeLanguage("fr");
    expect(errorText(error)).toBe(`Un problème est survenu de notre côté. Veuillez réessayer. Référence : ${requestId}`);
  });

  it("shows the server's message for a code it cannot translate", () => {
    expect(errorText(apiError(418, "teapot", "I am a teapot."))).toBe("I am a teapot.");
  });

  it("falls back to the given key when the server was never reached", () => {
    expect(errorText(new TypeError("Failed to fetch"), "toasts.downloadError.description")).toBe(i18n.t("toasts.downloadError.description"));
    expect(errorText(new TypeError("Failed to fetch"))).toBe("Something went wrong. Please try again.");
  });

  it("never shows a status code: an answer without Plume's JSON error (a proxy's page) gets the fallback sentence", () => {
    const proxyPage = new ApiError(413, "<html><body><h1>413 Request Entity Too Large</h1></body></html>", null);
    // The status stays in the error's own message, for logs and details (docs/product.md#errors).
    expect(proxyPage.message).toMatch(/^413: <html>/);
    expect(errorText(proxyPage)).toBe("Something went wrong. Please try again.");
    expect(errorText(apiError(415, "file_invalid_type", "The file is not one of: pdf, doc, docx."))).toBe("This file type is not accepted.");
  });
});
