import { GuardedRouter } from "../http/access.ts";
import { buildOpenApiDocument } from "./openapi-document.ts";

/** GET /api/openapi.json: the REST API's description, built once, on the first call (it only changes with the code). */
export function openApiRoutes(adminEmail: string | undefined): GuardedRouter {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  return new GuardedRouter("/api", adminEmail).get("/openapi.json", (_req, res) => {
    document ??= buildOpenApiDocument();
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.json(document);
  });
}
