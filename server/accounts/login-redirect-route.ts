import { safeReturnPath } from "../../shared/return-path.ts";
import { GuardedRouter } from "../http/access.ts";

/** GET /api/login: where the client sends visitors who must sign in; the sign-in screen returns them to `next`. */
export function loginRedirectRoute(adminEmail: string | undefined): GuardedRouter {
  return new GuardedRouter("/api", adminEmail).get("/login", (req, res) => {
    const next = safeReturnPath(typeof req.query.next === "string" ? req.query.next : undefined);
    res.redirect(302, next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`);
  });
}
