import { type RunningNginx, nginxInstalled, nginxVersion as installedVersion, startNginx as runNginx } from "../../test/helpers/nginx.ts";

/**
 * nginx as the bare peer of a download: static files as fast as a web server sends them (sendfile,
 * no compression, no logging), from a configuration of its own in a scratch folder.
 */

export async function nginxVersion(): Promise<string> {
  if (!nginxInstalled()) throw new Error("nginx is not installed; the downloads benchmark compares with it (apt-get install -y nginx)");
  return installedVersion();
}

/** Serves `folder` on a free port until stopped; ready once it answers `probePath`. */
export function startNginx(folder: string, probePath: string, options: { scratch: string; logFile: string }): Promise<RunningNginx> {
  return runNginx({
    ...options,
    probePath,
    workerProcesses: "auto",
    http: `  access_log off;
  sendfile on;
  tcp_nopush on;
  gzip off;
  types { application/pdf pdf; }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:{port};
    root ${folder};
  }`,
  });
}
