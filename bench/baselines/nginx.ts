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

/** nginx's internal location of Plume's uploads folder, as docs/deploy.md sets it up. */
export const ACCEL_REDIRECT_LOCATION = "/_plume-uploads/";

/**
 * nginx in front of Plume as docs/deploy.md sets it up for DOWNLOADS_ACCEL_REDIRECT (docs/decisions/0078):
 * requests go to Plume, and the files it names in X-Accel-Redirect are sent from `uploadsDir` with
 * sendfile. It stands in for the TLS proxy (X-Forwarded-Proto https), so the Secure session cookie works.
 */
export function startNginxInFront(plumeUrl: string, uploadsDir: string, options: { scratch: string; logFile: string }): Promise<RunningNginx> {
  return runNginx({
    ...options,
    probePath: "/healthz",
    workerProcesses: "auto",
    http: `  access_log off;
  sendfile on;
  tcp_nopush on;
  gzip off;
  upstream plume {
    server ${new URL(plumeUrl).host};
    keepalive 32;
  }
  server {
    listen 127.0.0.1:{port};
    location / {
      proxy_pass http://plume;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto https;
    }
    location ${ACCEL_REDIRECT_LOCATION} {
      internal;
      alias ${uploadsDir}/;
      add_header X-Content-Type-Options nosniff always;
      max_ranges 0;
    }
  }`,
  });
}
