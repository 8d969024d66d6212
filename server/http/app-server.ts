import { IncomingMessage, type Server, ServerResponse, createServer } from "node:http";
import type { Express } from "express";

/**
 * The HTTP server of an Express app, whose requests and responses are born with the app's own
 * prototypes. Express gives each request and response its prototypes with Object.setPrototypeOf
 * when it starts handling them; done to objects Node made as plain IncomingMessage and
 * ServerResponse, that change of shape costs more than Express's routing, and leaves Node's own
 * HTTP code handling objects of two shapes. Born with them, the change is a no-op: an Express
 * app with one route took 60 µs of CPU per request before, 8 µs after (docs/performance.md).
 */
export function createAppServer(app: Express): Server {
  // Constructors in the old style, as Node's own are: a class's prototype cannot be replaced.
  function AppRequest(this: IncomingMessage, ...args: unknown[]) {
    Reflect.apply(IncomingMessage, this, args);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, ...args: unknown[]) {
    Reflect.apply(ServerResponse, this, args);
  }
  AppResponse.prototype = app.response;
  return createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    app,
  );
}
