import type { RequestHandler } from "express";
import { unauthorized } from "./errors.ts";

export const requireAuth: RequestHandler = (req, _res, next) => next(req.user ? undefined : unauthorized());
