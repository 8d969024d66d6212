import type { ChainSettings } from "./config.ts";

/** What `npm start` tells a newcomer after "Plume is ready on …": where things are, and how to try them. */
export interface StartFacts {
  dataDir: string;
  databaseUrl: string | undefined;
  /** STORAGE=s3's bucket (docs/decisions/0042); undefined when files are on disk under DATA_DIR/uploads. */
  bucket: { name: string; endpoint: string | undefined; region: string } | undefined;
  smtpUrl: string | undefined;
  /** nginx's internal location that sends counted downloads (DOWNLOADS_ACCEL_REDIRECT, docs/decisions/0078), when set. */
  accelRedirect?: string;
  /** Whether the chain is the local one the server started (the embedded default). */
  localChain: boolean;
  chain: Pick<ChainSettings, "publicRpcUrl" | "chainId" | "chainName" | "tokenAddress">;
  adminEmail: string | undefined;
}

/** A database or mail server address without its user and password: the banner may end up in a shared log. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  } catch {
    return "(unparsable URL)";
  }
}

export function startBanner({ dataDir, databaseUrl, bucket, smtpUrl, accelRedirect, localChain, chain, adminEmail }: StartFacts): string[] {
  const inBucket = bucket && `in the bucket ${bucket.name} at ${bucket.endpoint ? withoutCredentials(bucket.endpoint) : `AWS S3 (${bucket.region})`}`;
  const lines = [
    databaseUrl
      ? `  Database   PostgreSQL at ${withoutCredentials(databaseUrl)}; files ${inBucket ?? `under ${dataDir}/uploads`}`
      : `  Data       ${dataDir} (the PGlite database, ${inBucket ? "" : "uploaded files and "}mail; delete it to start afresh)`,
    ...(inBucket && !databaseUrl ? [`  Files      ${inBucket}`] : []),
    // A reader behind no such location gets an empty, counted file: the setting is worth seeing at start.
    ...(accelRedirect ? [`  Downloads  sent by nginx from its internal location ${accelRedirect} (DOWNLOADS_ACCEL_REDIRECT, docs/deploy.md)`] : []),
    smtpUrl ? `  Mail       sent through ${withoutCredentials(smtpUrl)}` : `  Mail       written as .eml files under ${dataDir}/mail (no SMTP_URL); each link is also printed here`,
    `  Chain      ${localChain ? "local Hardhat chain" : (chain.chainName ?? "unnamed chain")} at ${chain.publicRpcUrl}, chain id ${chain.chainId}`,
    `  PME token  ${chain.tokenAddress}`,
  ];
  if (localChain) {
    lines.push(
      `  MetaMask   add the network (RPC ${chain.publicRpcUrl}, chain id ${chain.chainId}), then import the token by the address above`,
      "             (the dashboard's wallet button offers both)",
    );
  }
  lines.push(
    adminEmail
      ? `  Admin      the account whose verified e-mail is ${adminEmail} (ADMIN_EMAIL): register with it and open the link mailed to it`
      : "  Admin      none: set ADMIN_EMAIL, then register with that address and open the link mailed to it",
  );
  if (localChain) {
    lines.push("  Note       the local chain lives in memory: payouts made on it are forgotten when the server stops (the next start pays on a new chain)");
  }
  return lines;
}
