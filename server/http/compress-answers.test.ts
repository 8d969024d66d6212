import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { compressAnswers, compressOnce } from "./compress-answers.ts";

/** An app answering whatever `answer` holds, marked as sent again unchanged (a kept catalog page). */
function appAnswering(answer: { cards: string[] }) {
  const app = express();
  app.use(compressAnswers());
  app.get("/", (_req, res) => {
    compressOnce(res);
    res.json(answer.cards);
  });
  return app;
}

const cards = (word: string) => Array.from({ length: 200 }, (_, index) => `${word} ${index}`);

describe("answers compressed once", () => {
  it("sends each encoding's kept bytes while the answer is the same, and the new answer once it changes", async () => {
    const answer = { cards: cards("atlas") };
    const app = appAnswering(answer);
    const get = (encoding: string) => request(app).get("/").set("Accept-Encoding", encoding).expect(200);
    const first = await get("br");
    expect(first.headers["content-encoding"]).toBe("br");
    expect((await get("br")).body).toEqual(answer.cards);
    const gzip = await get("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.body).toEqual(answer.cards);
    answer.cards = cards("carte");
    const changed = await get("br");
    expect(changed.body).toEqual(answer.cards);
    expect(Number(changed.headers["content-length"])).toBeGreaterThan(0);
  });
});
