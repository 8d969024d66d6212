import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { type ReceivedFile, receivedFiles } from "./upload-parser.ts";

const received: ReceivedFile = { tempPath: "/tmp/x", size: 1, header: Buffer.from("%"), extension: "pdf", sha256: "0".repeat(64), originalName: "x.pdf" };

describe("receivedFiles", () => {
  it("lists the files whose storage finished, by field", () => {
    const req = { files: { file: [{ fieldname: "file", received }] } } as unknown as Request;
    expect(receivedFiles(req)).toStrictEqual({ file: received });
  });

  // Regression found by server/fuzz.api.test.ts: a form cut off inside a file part is answered while
  // that part is still multer's placeholder; reading it when the response closed threw (an uncaught
  // exception, which ends the process).
  it("skips a part multer still holds a placeholder for", () => {
    const req = { files: { file: [{ fieldname: "file" }], coverImage: [{ fieldname: "coverImage", received }] } } as unknown as Request;
    expect(receivedFiles(req)).toStrictEqual({ coverImage: received });
  });

  it("is empty for a request without files", () => {
    expect(receivedFiles({} as Request)).toEqual({});
  });
});
