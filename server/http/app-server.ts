import { IncomingMessage, type Server, ServerResponse, createServer } from "node:http";
import type { Express } from "express";

export interface AppServer {
  server: Server;
  /** Hands the server its app; until then a request is answered 503. */
  serve(app: Express): void;
}

/**
 * The HTTP server of an Express app, whose requests and responses are born with the app's own
 * prototypes. Express gives each request and response its prototypes with Object.setPrototypeOf
 * when it starts handling them; done to objects Node made as plain IncomingMessage and
 * ServerResponse, that change of shape costs more than Express's routing, and leaves Node's own
 * HTTP code handling objects of two shapes. Born with them, the change is a no-op: an Express
 * app with one route took 60 µs of CPU per request before, 8 µs after (docs/performance.md).
 *
 * The app comes after the server listens: its links start with the address it listens on, whose
 * port is known only then with PORT=0 (docs/decisions/0053). server/server.ts hands it over in the
 * same turn as `listening`, before any connection is read.
 */
export function createAppServer(): AppServer {
  // Constructors in the old style, as Node's own are: a class's prototype cannot be replaced.
  function AppRequest(this: IncomingMessage, ...args: unknown[]) {
    Reflect.apply(IncomingMessage, this, args);
  }
  function AppResponse(this: ServerResponse, ...args: unknown[]) {
    Reflect.apply(ServerResponse, this, args);
  }
  // Node's own until the app is given: what comes before is plain Node, answered 503.
  AppRequest.prototype = IncomingMessage.prototype;
  AppResponse.prototype = ServerResponse.prototype;
  let handle = (_req: IncomingMessage, res: ServerResponse) => {
    res.statusCode = 503;
    res.end();
  };
  const server = createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    (req, res) => handle(req, res),
  );
  return {
    server,
    serve(app) {
      AppRequest.prototype = app.request;
      AppResponse.prototype = app.response;
      handle = app;
    },
  };
}
