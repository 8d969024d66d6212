import { Router } from "express";
import { safeReturnPath } from "../../shared/return-path.ts";

/** GET /api/login: where the client sends visitors who must sign in; the sign-in screen returns them to `next`. */
export function loginRedirectRoute(): Router {
  const router = Router();
  router.get("/login", (req, res) => {
    const next = safeReturnPath(typeof req.query.next === "string" ? req.query.next : undefined);
    res.redirect(302, next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`);
  });
  return router;
}
