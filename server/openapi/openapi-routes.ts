import { z } from "zod";
import { routeGroup, routesOf } from "../http/define-route.ts";
import { type DescribedRoute, buildOpenApiDocument } from "./openapi-document.ts";

export interface OpenApiRoutesDeps {
  /** Every route the app serves, as declared (server/http/route-table.ts). */
  routes: readonly DescribedRoute[];
}

const route = routesOf<OpenApiRoutesDeps>();
/** Built once per process, on the first call: it only changes with the code. */
let document: ReturnType<typeof buildOpenApiDocument> | undefined;

/** GET /api/openapi.json: the REST API's description. */
export const openApiRoutes = routeGroup("/api", [
  route(
    {
      method: "GET",
      path: "/api/openapi.json",
      access: "public",
      summary: "This description",
      tag: "platform",
      answer: { status: 200, description: "The OpenAPI 3.1 document.", json: z.record(z.string(), z.unknown()) },
      errors: [],
    },
    ({ res }, { routes }) => {
      document ??= buildOpenApiDocument(routes);
      res.setHeader("Cache-Control", "public, max-age=3600");
      return document as unknown as Record<string, unknown>;
    },
  ),
]);
