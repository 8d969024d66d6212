import type { RequestHandler } from "express";
import { isAdmin } from "../accounts/present-user.ts";
import { forbidden, unauthorized } from "./errors.ts";

/** Only the account of ADMIN_EMAIL passes (docs/product.md#roles); everyone else gets 403, anonymous 401. */
export function requireAdmin(adminEmail: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (!req.user) return next(unauthorized());
    next(isAdmin(req.user, adminEmail) ? undefined : forbidden("Only the admin can do this."));
  };
}
