import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("gives the embedded defaults when nothing is set", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 5000, dataDir: "./data", databaseUrl: undefined, isProduction: false });
  });

  it("sizes the embedded database's buffer pool at 16 MB unless told, in PostgreSQL's notation", () => {
    expect(loadConfig({}).pgliteSharedBuffers).toBe("16MB");
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: "128MB" }).pgliteSharedBuffers).toBe("128MB");
    for (const bad of ["16", "16 MB", "0MB", "-1MB", "16TB", "16MB; drop table users"]) {
      expect(() => loadConfig({ PGLITE_SHARED_BUFFERS: bad })).toThrow(/^Invalid setting PGLITE_SHARED_BUFFERS: must be a size like 16MB$/);
    }
  });

  it("names the variable of a bad value in one line", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/^Invalid setting PORT: /);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/Invalid setting DATABASE_URL/);
    expect(() => loadConfig({ ADMIN_EMAIL: "not-an-email" })).toThrow(/Invalid setting ADMIN_EMAIL/);
    expect(() => loadConfig({ SESSION_SECRET: "short" })).toThrow(/Invalid setting SESSION_SECRET/);
  });

  it("takes a contact address for the contact page, and refuses one that is not an address", () => {
    expect(loadConfig({}).contactEmail).toBeUndefined();
    expect(loadConfig({ CONTACT_EMAIL: "hello@plume.example" }).contactEmail).toBe("hello@plume.example");
    expect(loadConfig({}).legalContact).toBeUndefined();
    expect(loadConfig({ LEGAL_CONTACT: " Plume Legal, 1 Rue de la Paix, Paris " }).legalContact).toBe("Plume Legal, 1 Rue de la Paix, Paris");
    expect(() => loadConfig({ LEGAL_CONTACT: "x".repeat(501) })).toThrow(/^Invalid setting LEGAL_CONTACT: /);
    expect(() => loadConfig({ CONTACT_EMAIL: "hello" })).toThrow(/^Invalid setting CONTACT_EMAIL: /);
  });

  it("runs the cover queue below the server and pausing for it by default, and refuses settings it cannot follow (docs/decisions/0073)", () => {
    expect(loadConfig({}).coverQueue).toEqual({ niceness: 10, yieldTo: { requestsInFlightMax: 2, eventLoopDelayMaxMs: 50, maxPauseMs: 10_000 } });
    expect(loadConfig({ COVER_NICENESS: "0", COVER_PAUSE_MAX_SECONDS: "0" }).coverQueue).toMatchObject({ niceness: 0, yieldTo: { maxPauseMs: 0 } });
    expect(() => loadConfig({ COVER_NICENESS: "20" })).toThrow("Invalid setting COVER_NICENESS: must be 0 (the server's own priority) to 19");
    expect(() => loadConfig({ COVER_NICENESS: "low" })).toThrow("Invalid setting COVER_NICENESS: must be a whole number from 0 to 19");
    expect(() => loadConfig({ COVER_PAUSE_REQUESTS_IN_FLIGHT: "-1" })).toThrow("Invalid setting COVER_PAUSE_REQUESTS_IN_FLIGHT: must be 0 or more requests");
    expect(() => loadConfig({ COVER_PAUSE_EVENT_LOOP_DELAY_MS: "5" })).toThrow(
      "Invalid setting COVER_PAUSE_EVENT_LOOP_DELAY_MS: must be at least 10 ms: the event loop's delay is sampled every 10 ms",
    );
    expect(() => loadConfig({ COVER_PAUSE_MAX_SECONDS: "1.5" })).toThrow("Invalid setting COVER_PAUSE_MAX_SECONDS: must be a whole number of seconds");
    expect(() => loadConfig({ COVER_PAUSE_MAX_SECONDS: "7200" })).toThrow("Invalid setting COVER_PAUSE_MAX_SECONDS: must be at most 3600 seconds: a cover must not wait longer");
  });

  it("lets a classroom register behind one address, under a ceiling for all addresses together (docs/decisions/0048)", () => {
    expect(loadConfig({}).rateLimits).toMatchObject({ registerPerIp: 100, registerAllAddresses: 300 });
    expect(loadConfig({ RATE_LIMIT_REGISTER_ALL_ADDRESSES: "50" }).rateLimits.registerAllAddresses).toBe(50);
    expect(() => loadConfig({ RATE_LIMIT_REGISTER_ALL_ADDRESSES: "0" })).toThrow(/^Invalid setting RATE_LIMIT_REGISTER_ALL_ADDRESSES: /);
    expect(() => loadConfig({ RATE_LIMIT_REGISTER_PER_IP: "lots" })).toThrow(/^Invalid setting RATE_LIMIT_REGISTER_PER_IP: /);
  });

  it("requires the public address, a session secret, a database and the chain settings in production", () => {
    const chain = { RPC_URL: "https://rpc.example", PME_TOKEN_ADDRESS: `0x${"1".repeat(40)}`, BATCH_PAYER_ADDRESS: `0x${"3".repeat(40)}`, PAYOUT_PRIVATE_KEY: `0x${"2".repeat(64)}` };
    const production = { NODE_ENV: "production", PUBLIC_URL: "https://plume.example" };
    expect(() => loadConfig({ ...production, DATABASE_URL: "postgres://db/plume", ...chain })).toThrow(
      /Invalid setting SESSION_SECRET: is required in production/,
    );
    expect(() => loadConfig({ ...production, SESSION_SECRET: "x".repeat(32), ...chain })).toThrow(
      /Invalid setting DATABASE_URL: is required in production/,
    );
    const { PAYOUT_PRIVATE_KEY: _key, ...withoutKey } = chain;
    expect(() => loadConfig({ ...production, SESSION_SECRET: "x".repeat(32), DATABASE_URL: "postgres://db/p", ...withoutKey })).toThrow(
      /Invalid setting PAYOUT_PRIVATE_KEY: is required in production/,
    );
  });

  it("refuses to start in production without PUBLIC_URL: a link made from a request's Host hands its token to whoever wrote it (docs/decisions/0053)", () => {
    const everythingElse = {
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(32),
      DATABASE_URL: "postgres://db/plume",
      RPC_URL: "https://rpc.example",
      PME_TOKEN_ADDRESS: `0x${"1".repeat(40)}`,
      BATCH_PAYER_ADDRESS: `0x${"3".repeat(40)}`,
      PAYOUT_PRIVATE_KEY: `0x${"2".repeat(64)}`,
    };
    for (const unset of [{}, { PUBLIC_URL: "" }]) {
      expect(() => loadConfig({ ...everythingElse, ...unset })).toThrow(new ConfigError("Invalid setting PUBLIC_URL: is required in production"));
    }
    expect(loadConfig({ ...everythingElse, PUBLIC_URL: "https://plume.example" }).publicOrigin).toBe("https://plume.example");
  });

  it("takes TRUST_PROXY as a hop count or the proxies' addresses, and refuses true", () => {
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,2001:db8::7" }).trustProxy).toEqual(["loopback", "10.0.0.0/8", "2001:db8::7"]);
    expect(loadConfig({}).trustProxy).toBeUndefined();
    // true trusts the leftmost X-Forwarded-For entry, which any client can write.
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/Invalid setting TRUST_PROXY: .*true would trust an address the client wrote/);
    for (const bad of ["0", "10.0.0.0/33", "10.0.0.1/8/2", "nginx", "loopback,", "2001:db8::/129"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/Invalid setting TRUST_PROXY/);
    }
  });

  it("leaves downloads to Plume unless DOWNLOADS_ACCEL_REDIRECT names nginx's internal location, on disk only (docs/decisions/0078)", () => {
    expect(loadConfig({}).storage).toEqual({ driver: "disk", accelRedirect: undefined });
    expect(loadConfig({ DOWNLOADS_ACCEL_REDIRECT: "/_plume-uploads/" }).storage).toEqual({ driver: "disk", accelRedirect: "/_plume-uploads/" });
    for (const bad of ["_plume-uploads/", "/_plume-uploads", "/a b/", "/../", "https://cdn.example/"]) {
      expect(() => loadConfig({ DOWNLOADS_ACCEL_REDIRECT: bad }), bad).toThrow(/Invalid setting DOWNLOADS_ACCEL_REDIRECT/);
    }
    const bucket = { STORAGE: "s3", S3_REGION: "eu-central-1", S3_BUCKET: "plume-books", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" };
    expect(() => loadConfig({ ...bucket, DOWNLOADS_ACCEL_REDIRECT: "/_plume-uploads/" })).toThrow(/Invalid setting DOWNLOADS_ACCEL_REDIRECT: is for STORAGE=disk/);
  });

  it("hashes passwords at the standard cost unless a test run asks for the cheap one, which nothing else may", () => {
    expect(loadConfig({}).passwordHashCost).toBe("standard");
    expect(loadConfig({ NODE_ENV: "test", PASSWORD_HASH_COST: "test" }).passwordHashCost).toBe("test");
    expect(() => loadConfig({ PASSWORD_HASH_COST: "test" })).toThrow("Invalid setting PASSWORD_HASH_COST: test is for NODE_ENV=test only");
    expect(() => loadConfig({ NODE_ENV: "test", PASSWORD_HASH_COST: "weak" })).toThrow(/Invalid setting PASSWORD_HASH_COST/);
  });

  it("takes PUBLIC_URL as an origin, and refuses a path, a query or another scheme", () => {
    expect(loadConfig({}).publicOrigin).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: "https://Plume.Example/" }).publicOrigin).toBe("https://plume.example");
    expect(loadConfig({ PUBLIC_URL: "http://localhost:5000" }).publicOrigin).toBe("http://localhost:5000");
    for (const bad of ["plume.example", "ftp://plume.example", "https://plume.example/books", "https://plume.example/?a=1"]) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/^Invalid setting PUBLIC_URL: must be /);
    }
  });

  it("treats an empty variable as unset and lower-cases the admin e-mail", () => {
    const config = loadConfig({ DATABASE_URL: "", ADMIN_EMAIL: "Admin@Plume.Test" });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.adminEmail).toBe("admin@plume.test");
  });
});

describe("reward settings", () => {
  it("default to the promotion of docs/product.md#rewards and 1 PME per milestone", () => {
    expect(loadConfig({}).rewards).toEqual({ promoCutoff: new Date("2026-04-01T00:00:00Z"), tokensPerMilestone: 1, payoutHoldMs: 0 });
    const production = {
      NODE_ENV: "production",
      PUBLIC_URL: "https://plume.example",
      DATABASE_URL: "postgres://db/plume",
      SESSION_SECRET: "s".repeat(32),
      RPC_URL: "https://rpc.example",
      PME_TOKEN_ADDRESS: `0x${"1".repeat(40)}`,
      BATCH_PAYER_ADDRESS: `0x${"3".repeat(40)}`,
      PAYOUT_PRIVATE_KEY: `0x${"2".repeat(64)}`,
    };
    expect(loadConfig(production).rewards.payoutHoldMs).toBe(24 * 60 * 60 * 1000);
    expect(loadConfig({ ...production, PAYOUT_HOLD_HOURS: "0.5" }).rewards.payoutHoldMs).toBe(30 * 60 * 1000);
  });

  it("refuse a cutoff that is not an ISO date-time", () => {
    expect(() => loadConfig({ PROMO_CUTOFF: "April 1st" })).toThrow(/Invalid setting PROMO_CUTOFF/);
    expect(() => loadConfig({ TOKENS_PER_MILESTONE: "0" })).toThrow(/Invalid setting TOKENS_PER_MILESTONE/);
  });
});

describe("chain settings", () => {
  const chain = { RPC_URL: "https://rpc.example", PME_TOKEN_ADDRESS: `0x${"1".repeat(40)}`, BATCH_PAYER_ADDRESS: `0x${"3".repeat(40)}`, PAYOUT_PRIVATE_KEY: `0x${"2".repeat(64)}` };

  it("start a local chain when RPC_URL is unset", () => {
    expect(loadConfig({}).chain).toEqual({ kind: "local", port: 8545, explorerUrl: null });
    expect(loadConfig({ LOCAL_CHAIN_PORT: "9545", EXPLORER_URL: "http://explorer.test" }).chain).toEqual({
      kind: "local",
      port: 9545,
      explorerUrl: "http://explorer.test",
    });
  });

  it("turn WalletConnect on only with a project id, on WalletConnect's relay unless told (docs/decisions/0109)", () => {
    expect(loadConfig({ WALLETCONNECT_RELAY_URL: "wss://relay.plume.example" }).walletConnect).toBeUndefined();
    const projectId = "0123456789abcdef0123456789ABCDEF";
    expect(loadConfig({ WALLETCONNECT_PROJECT_ID: projectId }).walletConnect).toEqual({ projectId, relayUrl: "wss://relay.walletconnect.org" });
    expect(loadConfig({ WALLETCONNECT_PROJECT_ID: projectId, WALLETCONNECT_RELAY_URL: "ws://127.0.0.1:4000" }).walletConnect?.relayUrl).toBe("ws://127.0.0.1:4000");
    expect(() => loadConfig({ WALLETCONNECT_PROJECT_ID: "my-project" })).toThrow(/^Invalid setting WALLETCONNECT_PROJECT_ID: /);
    expect(() => loadConfig({ WALLETCONNECT_PROJECT_ID: projectId, WALLETCONNECT_RELAY_URL: "https://relay.plume.example" })).toThrow(/^Invalid setting WALLETCONNECT_RELAY_URL: must be a wss:\/\/ URL$/);
  });

  it("default to Polygon mainnet with 30 confirmations", () => {
    expect(loadConfig(chain).chain).toEqual({
      kind: "external",
      settings: {
        rpcUrl: "https://rpc.example",
        publicRpcUrl: "https://polygon-rpc.com",
        chainId: 137,
        chainName: "Polygon",
        tokenAddress: chain.PME_TOKEN_ADDRESS,
        batchPayerAddress: chain.BATCH_PAYER_ADDRESS,
        payoutPrivateKey: chain.PAYOUT_PRIVATE_KEY,
        confirmations: 30,
        explorerUrl: "https://polygonscan.com",
      },
    });
  });

  it("need the token and the key with RPC_URL, and never print the key", () => {
    expect(() => loadConfig({ RPC_URL: "https://rpc.example" })).toThrow(/PME_TOKEN_ADDRESS: is required when RPC_URL is set/);
    const badKey = "0xsecretsecret";
    try {
      loadConfig({ ...chain, PAYOUT_PRIVATE_KEY: badKey });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid setting PAYOUT_PRIVATE_KEY/);
      expect((error as Error).message).not.toContain(badKey);
    }
  });
});

describe("payout policy (docs/decisions/0037, 0038)", () => {
  const polygon = { RPC_URL: "https://rpc.example", PME_TOKEN_ADDRESS: `0x${"1".repeat(40)}`, BATCH_PAYER_ADDRESS: `0x${"3".repeat(40)}`, PAYOUT_PRIVATE_KEY: `0x${"2".repeat(64)}` };
  const gwei = 10n ** 9n;

  it("takes Polygon's defaults on chain 137: a 30 gwei tip floor, 1 POL of gas; elsewhere the node's own tip", () => {
    expect(loadConfig(polygon).payoutPolicy).toEqual({
      finalityLagMaxSeconds: 600,
      priorityFeeFloorWei: 30n * gwei,
      maxFeeWei: 1000n * gwei,
      minPolWei: 10n ** 18n,
      minPmeWei: 10n ** 18n,
    });
    expect(loadConfig({ ...polygon, CHAIN_ID: "80002" }).payoutPolicy).toMatchObject({ priorityFeeFloorWei: 0n, minPolWei: 10n ** 16n });
    expect(loadConfig({}).payoutPolicy).toMatchObject({ priorityFeeFloorWei: 0n, minPolWei: 10n ** 16n });
  });

  it("reads decimals exactly", () => {
    const policy = loadConfig({
      ...polygon,
      PAYOUT_PRIORITY_FEE_MIN_GWEI: "25.5",
      PAYOUT_MAX_FEE_GWEI: "500",
      HOT_WALLET_MIN_POL: "0.25",
      HOT_WALLET_MIN_PME: "10",
      PAYOUT_FINALITY_LAG_MAX_SECONDS: "900",
    }).payoutPolicy;
    expect(policy).toEqual({ finalityLagMaxSeconds: 900, priorityFeeFloorWei: 25_500_000_000n, maxFeeWei: 500n * gwei, minPolWei: 25n * 10n ** 16n, minPmeWei: 10n * 10n ** 18n });
  });

  it.each([
    [{ PAYOUT_PRIORITY_FEE_MIN_GWEI: "40", PAYOUT_MAX_FEE_GWEI: "35" }, /^Invalid setting PAYOUT_PRIORITY_FEE_MIN_GWEI: the priority fee floor .* is above the fee ceiling/],
    [{ PAYOUT_MAX_FEE_GWEI: "20" }, /^Invalid setting PAYOUT_MAX_FEE_GWEI: the priority fee floor .* is above the fee ceiling/],
    [{ PAYOUT_MAX_FEE_GWEI: "1e3" }, /^Invalid setting PAYOUT_MAX_FEE_GWEI: must be a number of gwei/],
    [{ PAYOUT_PRIORITY_FEE_MIN_GWEI: "-1" }, /^Invalid setting PAYOUT_PRIORITY_FEE_MIN_GWEI: must be a number of gwei/],
    [{ HOT_WALLET_MIN_POL: "lots" }, /^Invalid setting HOT_WALLET_MIN_POL: must be an amount/],
    [{ HOT_WALLET_MIN_PME: "0x10" }, /^Invalid setting HOT_WALLET_MIN_PME: must be an amount/],
    [{ PAYOUT_FINALITY_LAG_MAX_SECONDS: "0" }, /^Invalid setting PAYOUT_FINALITY_LAG_MAX_SECONDS/],
    [{ PAYOUT_FINALITY_LAG_MAX_SECONDS: "ten" }, /^Invalid setting PAYOUT_FINALITY_LAG_MAX_SECONDS/],
  ])("stops on %j with one line naming the variable", (bad, message) => {
    expect(() => loadConfig({ ...polygon, ...bad })).toThrow(message);
    try {
      loadConfig({ ...polygon, ...bad });
    } catch (error) {
      expect((error as Error).message.split("\n")).toHaveLength(1);
    }
  });
});

describe("mail settings", () => {
  it("write to files by default, and name the variable of a bad value on one line", () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: undefined, from: "Plume <no-reply@localhost>" });
    expect(loadConfig({ SMTP_URL: "smtps://u:p@mail.example:465", MAIL_FROM: "Books <books@plume.example>" }).mail).toEqual({
      smtpUrl: "smtps://u:p@mail.example:465",
      from: "Books <books@plume.example>",
    });
    expect(() => loadConfig({ SMTP_URL: "https://mail.example" })).toThrow(/^Invalid setting SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => loadConfig({ MAIL_FROM: "nobody" })).toThrow(/^Invalid setting MAIL_FROM: must hold an address/);
  });

  it("reads the operations settings, and refuses bad ones in one line that never repeats a token", () => {
    expect(loadConfig({})).toMatchObject({ log: { level: "info", format: undefined }, metricsToken: undefined, shutdownTimeoutMs: 25_000 });
    const token = "a-scraper-token-of-some-length";
    expect(loadConfig({ LOG_LEVEL: "debug", LOG_FORMAT: "json", METRICS_TOKEN: token, SHUTDOWN_TIMEOUT_SECONDS: "5" })).toMatchObject({
      log: { level: "debug", format: "json" },
      metricsToken: token,
      shutdownTimeoutMs: 5_000,
    });
    expect(() => loadConfig({ LOG_LEVEL: "verbose" })).toThrow(/^Invalid setting LOG_LEVEL: /);
    expect(() => loadConfig({ LOG_FORMAT: "xml" })).toThrow(/^Invalid setting LOG_FORMAT: /);
    expect(() => loadConfig({ METRICS_TOKEN: "short-secret" })).toThrow(/^Invalid setting METRICS_TOKEN: must be at least 16 characters$/);
    for (const bad of ["0", "-1", "2.5", "soon"]) {
      expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: bad }), bad).toThrow(/^Invalid setting SHUTDOWN_TIMEOUT_SECONDS: /);
    }
  });
});

describe("storage settings (docs/decisions/0042)", () => {
  const s3 = {
    STORAGE: "s3",
    S3_ENDPOINT: "https://s3.example.test",
    S3_REGION: "eu-central-1",
    S3_BUCKET: "plume-books",
    S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
    S3_SECRET_ACCESS_KEY: "a-secret-that-must-not-leak",
  };

  it("keep files on disk with a one-hour grace for the orphan sweep unless told otherwise", () => {
    const config = loadConfig({});
    expect(config.storage).toEqual({ driver: "disk" });
    expect(config.orphanGraceMs).toBe(60 * 60 * 1000);
    expect(loadConfig({ ORPHAN_GRACE_MINUTES: "0" }).orphanGraceMs).toBe(0);
    expect(() => loadConfig({ ORPHAN_GRACE_MINUTES: "-1" })).toThrow(/^Invalid setting ORPHAN_GRACE_MINUTES: /);
  });

  it("read a bucket's settings, path-style only when asked", () => {
    expect(loadConfig(s3).storage).toEqual({
      driver: "s3",
      s3: { endpoint: "https://s3.example.test", region: "eu-central-1", bucket: "plume-books", accessKeyId: "AKIAEXAMPLE", secretAccessKey: "a-secret-that-must-not-leak", forcePathStyle: false },
    });
    expect(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: "true" }).storage).toMatchObject({ s3: { forcePathStyle: true } });
    expect(loadConfig({ ...s3, S3_ENDPOINT: "" }).storage).toMatchObject({ s3: { endpoint: undefined } });
  });

  it("need the region, bucket and keys with STORAGE=s3, and refuse bad values in one line that never repeats a key", () => {
    for (const name of ["S3_REGION", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"]) {
      expect(() => loadConfig({ ...s3, [name]: "" })).toThrow(`Invalid setting ${name}: is required when STORAGE=s3`);
    }
    expect(() => loadConfig({ STORAGE: "minio" })).toThrow(/^Invalid setting STORAGE: /);
    expect(() => loadConfig({ ...s3, S3_BUCKET: "Not_A_Bucket" })).toThrow(/^Invalid setting S3_BUCKET: must be a bucket name/);
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: "ftp://s3.example.test" })).toThrow(/^Invalid setting S3_ENDPOINT: /);
    expect(() => loadConfig({ ...s3, S3_FORCE_PATH_STYLE: "yes" })).toThrow("Invalid setting S3_FORCE_PATH_STYLE: must be true or false");
    const longSecret = `leak-${"x".repeat(300)}`;
    try {
      loadConfig({ ...s3, S3_SECRET_ACCESS_KEY: longSecret });
      throw new Error("accepted");
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid setting S3_SECRET_ACCESS_KEY: /);
      expect((error as Error).message).not.toContain("leak-");
    }
  });
});

describe("storage limits (docs/decisions/0055)", () => {
  const MB = 1024 * 1024;

  it("give each account 1 GB, keep 1 GB free and set no ceiling for all unless told otherwise", () => {
    expect(loadConfig({}).storageLimits).toEqual({ quotaPerAccountBytes: 1024 * MB, freeSpaceMinBytes: 1024 * MB, totalMaxBytes: undefined });
    expect(loadConfig({ STORAGE_QUOTA_PER_ACCOUNT_MB: "50", STORAGE_FREE_SPACE_MIN_MB: "0", STORAGE_TOTAL_MAX_GB: "2" }).storageLimits).toEqual({
      quotaPerAccountBytes: 50 * MB,
      freeSpaceMinBytes: 0,
      totalMaxBytes: 2 * 1024 * MB,
    });
  });

  it("refuse a quota or a ceiling of nothing, and fractions, in one line", () => {
    expect(() => loadConfig({ STORAGE_QUOTA_PER_ACCOUNT_MB: "0" })).toThrow(/^Invalid setting STORAGE_QUOTA_PER_ACCOUNT_MB: /);
    expect(() => loadConfig({ STORAGE_TOTAL_MAX_GB: "0" })).toThrow(/^Invalid setting STORAGE_TOTAL_MAX_GB: /);
    expect(() => loadConfig({ STORAGE_FREE_SPACE_MIN_MB: "1.5" })).toThrow(/^Invalid setting STORAGE_FREE_SPACE_MIN_MB: /);
    expect(() => loadConfig({ STORAGE_FREE_SPACE_MIN_MB: "-1" })).toThrow(/^Invalid setting STORAGE_FREE_SPACE_MIN_MB: /);
  });
});
