import { Validator } from "@seriousme/openapi-schema-validator";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, newAccount } from "../../test/helpers/test-app.ts";
import * as answers from "./answer-schemas.ts";

let testApp: TestApp;
let cookie: string;
let userId: string;
let bookId: number;

beforeAll(async () => {
  testApp = await createTestApp();
  const registered = await request(testApp.app).post("/api/auth/register").send(newAccount()).expect(201);
  expect(answers.currentUserSchema.parse(registered.body)).toEqual(registered.body);
  cookie = [registered.headers["set-cookie"] ?? []].flat()[0]!.split(";")[0]!;
  userId = registered.body.id as string;
  bookId = (await sendBookForm(request(testApp.app).post("/api/books").set("Cookie", cookie)).expect(201)).body.id as number;
});

afterAll(() => testApp.close());

describe("GET /api/openapi.json", () => {
  it("answers the valid document, to anyone", async () => {
    const response = await request(testApp.app).get("/api/openapi.json").expect(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.body.openapi).toBe("3.1.0");
    expect((await new Validator().validate(response.body as Record<string, unknown>)).valid).toBe(true);
  });
});

describe("the API's real answers", () => {
  /** The described schemas are strict: a field the API sends but the description lacks fails here. */
  const expectAnswer = (schema: z.ZodType, body: unknown) => {
    const result = schema.safeParse(body);
    expect(result.error?.issues ?? []).toEqual([]);
  };
  const get = (path: string) => request(testApp.app).get(path).set("Cookie", cookie).expect(200);

  it("match the schemas they are described with", async () => {
    expectAnswer(answers.currentUserSchema, (await get("/api/auth/user")).body);
    expectAnswer(answers.currentUserSchema.nullable(), (await request(testApp.app).get("/api/auth/user").expect(200)).body);
    expectAnswer(answers.publicConfigSchema, (await get("/api/config")).body);
    expectAnswer(answers.publicStatsSchema, (await get("/api/stats/public")).body);
    const catalog = (await get("/api/books")).body as unknown[];
    expect(catalog.length).toBeGreaterThan(0);
    for (const card of catalog) expectAnswer(answers.bookCardSchema, card);
    expectAnswer(answers.bookCardSchema, (await get(`/api/books/${bookId}`)).body);
    expectAnswer(answers.bookRatingSchema, (await get(`/rating/${bookId}`)).body);
    expectAnswer(answers.userRatingSchema, (await get(`/api/reviews?bookId=${bookId}&userId=${userId}`)).body);
    expectAnswer(answers.followStateSchema, (await get(`/api/authors/${userId}/follow`)).body);
    expectAnswer(answers.followingItemsSchema, (await get("/api/following")).body);
    expectAnswer(answers.authorProfileSchema, (await get(`/api/authors/${userId}`)).body);
    expectAnswer(answers.authorStatsSchema, (await get(`/api/authors/${userId}/stats`)).body);
    for (const payment of (await get(`/api/authors/${userId}/payments`)).body as unknown[]) expectAnswer(answers.authorPaymentSchema, payment);
    expectAnswer(answers.downloadReportSchema, (await get(`/api/authors/${userId}/download-report`)).body);
    expectAnswer(answers.storageUsageSchema, (await get("/api/account/storage")).body);
    const key = await request(testApp.app).post("/api/e-reader-keys").set("Cookie", cookie).send({ name: "Kobo" }).expect(201);
    expectAnswer(answers.createdEReaderKeySchema, key.body);
    for (const listed of (await get("/api/e-reader-keys")).body as unknown[]) expectAnswer(answers.eReaderKeySchema, listed);
  });

  it("refuse in the one error shape", async () => {
    expectAnswer(answers.apiErrorSchema, (await request(testApp.app).get("/api/books/abc").expect(400)).body);
    expectAnswer(answers.apiErrorSchema, (await request(testApp.app).get("/api/books/999999").expect(404)).body);
    expectAnswer(answers.apiErrorSchema, (await request(testApp.app).get("/api/account/sessions").expect(401)).body);
  });
});
