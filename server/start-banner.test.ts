import { describe, expect, it } from "vitest";
import { startBanner } from "./start-banner.ts";

const localChain = { publicRpcUrl: "http://127.0.0.1:8545", chainId: 31337, chainName: null, tokenAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3" };

describe("what npm start prints after it is ready", () => {
  it("tells a newcomer on the embedded defaults where the data is, the chain and token for MetaMask, how the admin is made, and that local payouts are forgotten", () => {
    const text = startBanner({ dataDir: "/home/ana/plume/data", databaseUrl: undefined, bucket: undefined, smtpUrl: undefined, localChain: true, chain: localChain, adminEmail: "admin@plume.test" }).join("\n");
    expect(text).toContain("/home/ana/plume/data");
    expect(text).toContain("/home/ana/plume/data/mail");
    expect(text).toContain("http://127.0.0.1:8545, chain id 31337");
    expect(text).toContain(localChain.tokenAddress);
    expect(text).toMatch(/MetaMask .*RPC http:\/\/127\.0\.0\.1:8545/);
    expect(text).toContain("verified e-mail is admin@plume.test (ADMIN_EMAIL)");
    expect(text).toMatch(/forgotten when the server stops/);
  });

  it("never prints a database or mail server's password, and says when no admin is set", () => {
    const text = startBanner({
      dataDir: "/srv/plume",
      databaseUrl: "postgres://plume:s3cret@db.internal:5432/plume",
      bucket: undefined,
      smtpUrl: "smtps://mailer:hunter2@smtp.example:465",
      localChain: false,
      chain: { ...localChain, chainName: "Polygon", chainId: 137, publicRpcUrl: "https://polygon-rpc.com" },
      adminEmail: undefined,
    }).join("\n");
    expect(text).not.toMatch(/s3cret|hunter2|plume:|mailer:/);
    expect(text).toContain("PostgreSQL at postgres://db.internal:5432/plume");
    expect(text).toContain("Polygon at https://polygon-rpc.com, chain id 137");
    expect(text).toContain("set ADMIN_EMAIL");
    expect(text).not.toMatch(/MetaMask|forgotten/);
  });

  it("names the bucket, not the data folder, where STORAGE=s3 keeps the files", () => {
    const facts = { dataDir: "/srv/plume", smtpUrl: undefined, localChain: false, chain: localChain, adminEmail: undefined };
    const onPostgres = startBanner({ ...facts, databaseUrl: "postgres://db.internal:5432/plume", bucket: { name: "plume-uploads", endpoint: undefined, region: "eu-central-1" } }).join("\n");
    expect(onPostgres).toContain("files in the bucket plume-uploads at AWS S3 (eu-central-1)");
    expect(onPostgres).not.toContain("/srv/plume/uploads");
    const embedded = startBanner({ ...facts, databaseUrl: undefined, bucket: { name: "plume", endpoint: "http://minio.internal:9000", region: "us-east-1" } }).join("\n");
    expect(embedded).toContain("(the PGlite database, mail;");
    expect(embedded).toContain("Files      in the bucket plume at http://minio.internal:9000");
  });

  it("says when nginx sends the counted downloads, and nothing of it otherwise (docs/decisions/0078)", () => {
    const facts = { dataDir: "/srv/plume", databaseUrl: "postgres://db.internal:5432/plume", bucket: undefined, smtpUrl: undefined, localChain: false, chain: localChain, adminEmail: undefined };
    expect(startBanner({ ...facts, accelRedirect: "/_plume-uploads/" }).join("\n")).toContain("Downloads  sent by nginx from its internal location /_plume-uploads/ (DOWNLOADS_ACCEL_REDIRECT");
    expect(startBanner(facts).join("\n")).not.toContain("Downloads");
  });
});
