import type { Express } from "express";

interface RouterLayer {
  rawPath?: string | string[];
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: RouterLayer[] };
}

const joinPaths = (prefix: string, path: string) => `${prefix === "/" ? "" : prefix}${path === "/" ? "" : path}` || "/";

/** Every "METHOD /path" the app answers, read from Express's router, mounted routers included. */
export function listRoutes(app: Express): string[] {
  const found = new Set<string>();
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) found.add(`${method.toUpperCase()} ${joinPaths(prefix, layer.route.path)}`);
      } else if (layer.handle.stack) {
        const mountPaths = [layer.rawPath ?? "/"].flat();
        for (const mountPath of mountPaths) walk(layer.handle.stack, joinPaths(prefix, mountPath));
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, "");
  return [...found].sort();
}
