import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

/** Every response carries an id; an unexpected error quotes it to the client and in the log. */
export const requestId: RequestHandler = (_req, res, next) => {
  const id = randomUUID();
  res.locals.requestId = id;
  res.setHeader("X-Request-Id", id);
  next();
};
