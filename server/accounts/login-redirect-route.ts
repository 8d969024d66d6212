import { z } from "zod";
import { safeReturnPath } from "../../shared/return-path.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";

/** The redirect needs nothing of the app: mount it with `{}`. */
export type LoginRedirectRouteDeps = Record<never, never>;

const route = routesOf<LoginRedirectRouteDeps>();

/** GET /api/login: where the client sends visitors who must sign in; the sign-in screen returns them to `next`. */
export const loginRedirectRoutes = routeGroup("/api", [
  route(
    {
      method: "GET",
      path: "/api/login",
      access: "public",
      summary: "Send a visitor to the sign-in screen",
      tag: "accounts",
      query: z.object({
        // A `next` that is no single string (repeated, nested) is no return path: the visitor still
        // goes to the sign-in screen, without one, rather than to a 400.
        next: z.string().optional().catch(undefined).meta({ description: "A path on this site to return to after signing in." }),
      }),
      answer: { status: 302, description: "Redirect to /login, with `next` when it is a safe path." },
      errors: [],
    },
    ({ query, res }) => {
      const next = safeReturnPath(query.next);
      res.redirect(302, next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`);
    },
  ),
]);
