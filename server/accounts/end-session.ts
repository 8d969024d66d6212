import type { Request, Response } from "express";

/** Signs this browser out: the session leaves the store and the browser forgets its cookie. */
export function endSession(req: Request, res: Response, sessionCookieName: string): Promise<void> {
  return new Promise((resolve, reject) => {
    req.logout((logoutError) => {
      if (logoutError) return reject(logoutError as Error);
      req.session.destroy((destroyError) => {
        if (destroyError) return reject(destroyError as Error);
        res.clearCookie(sessionCookieName, { path: "/" });
        resolve();
      });
    });
  });
}
