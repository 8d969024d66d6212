import { z } from "zod";

/** Every setting of the server, read once from the environment and validated. */
const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(5000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    ADMIN_EMAIL: z.email().optional(),
    PRODUCT_NAME: z.string().min(1).max(50).default("Plume"),
    COUNTED_PER_IP_PER_BOOK_PER_DAY: z.coerce.number().int().min(1).max(1000).default(3),
    PROMO_CUTOFF: z.iso.datetime({ offset: true }).default("2026-04-01T00:00:00Z"),
    TOKENS_PER_MILESTONE: z.coerce.number().int().min(1).max(1_000_000).default(1),
    PAYOUT_HOLD_HOURS: z.coerce.number().min(0).max(24 * 30).optional(),
    // Express's "trust proxy": unset trusts no proxy, so X-Forwarded-For cannot spoof the client address.
    TRUST_PROXY: z
      .string()
      .regex(/^(true|\d+|[\w.:/, -]+)$/, "must be true, a hop count, or proxy addresses")
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== "production") return;
    for (const name of ["SESSION_SECRET", "DATABASE_URL"] as const) {
      if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required in production" });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env["NODE_ENV"];
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string | undefined;
  sessionMaxAgeMs: number;
  adminEmail: string | undefined;
  productName: string;
  countedPerIpPerBookPerDay: number;
  rewards: RewardSettings;
  trustProxy: boolean | number | string | undefined;
}

export interface RewardSettings {
  promoCutoff: Date;
  /** Whole PME per milestone (and per first-book bonus). */
  tokensPerMilestone: number;
  /** How long an owed payment waits before it is sent ("payments take one or two days"). */
  payoutHoldMs: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment; a bad value throws one line naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (FOO= in a .env file) means "not set", not "set to nothing".
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(`Invalid setting ${name}: ${issue.message}`);
  }
  const env = parsed.data;
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === "production",
    port: env.PORT,
    host: env.HOST,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    sessionSecret: env.SESSION_SECRET,
    sessionMaxAgeMs: env.SESSION_MAX_AGE_DAYS * 24 * 60 * 60 * 1000,
    adminEmail: env.ADMIN_EMAIL?.toLowerCase(),
    productName: env.PRODUCT_NAME,
    countedPerIpPerBookPerDay: env.COUNTED_PER_IP_PER_BOOK_PER_DAY,
    rewards: {
      promoCutoff: new Date(env.PROMO_CUTOFF),
      tokensPerMilestone: env.TOKENS_PER_MILESTONE,
      payoutHoldMs: (env.PAYOUT_HOLD_HOURS ?? (env.NODE_ENV === "production" ? 24 : 0)) * 60 * 60 * 1000,
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}

function parseTrustProxy(value: string | undefined): boolean | number | string | undefined {
  if (value === undefined) return undefined;
  if (value === "true") return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}
