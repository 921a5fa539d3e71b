import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

/**
 * The only module that reads process.env. Every setting is validated once at
 * start-up; a bad value stops the server with a message naming the variable.
 */

/** An optional setting: empty counts as unset. */
function optionalText() {
  return z
    .string()
    .optional()
    .transform((v) => v || undefined);
}

/** The same, and a value set must pass `valid`, or `message` says why. */
function optionalSetting(valid: (value: string) => boolean, message: string) {
  return optionalText().refine((v) => !v || valid(v), message);
}

/**
 * Who may tell us the client's address in X-Forwarded-For (and https in
 * X-Forwarded-Proto): `{ proxies }`, the reverse proxies' addresses or ranges
 * (recommended: `TRUST_PROXY=127.0.0.1` or `10.0.0.0/8,fd00::/8`), whose word
 * counts only when they are the ones connecting; or `{ hops }`, the older
 * numeric form (`1`, also `true`/`yes`: one proxy), which believes the last
 * `hops` entries from whoever connects, so the app's port must not be
 * reachable except through the proxy. Unset, `0` or `false`: nobody (ADR 064).
 */
export type TrustProxy = { hops: number } | { proxies: readonly string[] };

/** An address, or an address with a prefix length that fits its family. */
function isAddressOrRange(text: string): boolean {
  const [address, prefix, extra] = text.split("/");
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const trustProxy = z
  .string()
  .optional()
  .transform((raw, ctx): TrustProxy | false => {
    const text = (raw ?? "").trim().toLowerCase();
    if (["", "0", "false", "no"].includes(text)) return false;
    if (text === "true" || text === "yes") return { hops: 1 };
    if (/^[1-9]\d?$/.test(text)) return { hops: Number(text) };
    const proxies = text.split(",").map((part) => part.trim());
    if (proxies.every(isAddressOrRange)) return { proxies };
    ctx.addIssue({
      code: "custom",
      message:
        "TRUST_PROXY must list your reverse proxies' addresses or ranges (for example 127.0.0.1 or 10.0.0.0/8,fd00::/8), or be a number of proxies (1)",
    });
    return z.NEVER;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce
    .number({ message: "PORT must be a number" })
    .int("PORT must be a whole number")
    .min(1, "PORT must be between 1 and 65535")
    .max(65535, "PORT must be between 1 and 65535")
    .default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().min(1, "DATA_DIR must not be empty").default("./data"),
  DATABASE_URL: z
    .string()
    .optional()
    .refine(
      (v) => !v || /^postgres(ql)?:\/\//.test(v) || /^sqlite:/.test(v),
      "DATABASE_URL must start with postgres:// (or sqlite: for a file path)",
    ),
  SITE_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^https?:\/\/[^\s]+$/.test(v), "SITE_URL must be an http(s) URL such as https://bodima.lk"),
  SITE_NAME: z.string().min(1, "SITE_NAME must not be empty").default("Bodima"),
  TRUST_PROXY: trustProxy,
  /**
   * Memory for the anonymous page cache (ADR 012); 0 turns it off. 128 MB holds the benchmark's
   * 5,000 most visited pages (about 15 KB each since the language links and switcher); at 64 MB
   * they no longer fit and the hot mix fell from 29,000 to 13,000 req/s (2026-11-24).
   */
  PAGE_CACHE_MB: z.coerce
    .number({ message: "PAGE_CACHE_MB must be a number" })
    .min(0, "PAGE_CACHE_MB must be 0 (off) or more")
    .max(65536, "PAGE_CACHE_MB must be at most 65536")
    .default(128),
  /** auto: demo data on an empty database only when the site runs on a local address (siteIsLocal). */
  SEED_DEMO: z
    .enum(["auto", "always", "never"], { message: "SEED_DEMO must be auto, always or never" })
    .default("auto"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SUPPORT_EMAIL: z.string().email("SUPPORT_EMAIL must be an email address").default("support@bodima.lk"),
  SMTP_URL: optionalSetting(
    (v) => /^smtps?:\/\/[^\s]+$/.test(v),
    "SMTP_URL must start with smtp:// or smtps:// (for example smtp://user:pass@mail.example.com:587)",
  ),
  /**
   * Where one-time codes for phones go (ADR 075): notifylk://USER_ID:API_KEY@SENDER_ID,
   * twilio-verify://ACCOUNT_SID:AUTH_TOKEN@SERVICE_SID or outbox: (development); unset:
   * the outbox on a local site, phone confirmation off on a public one.
   */
  SMS_URL: optionalSetting(
    (v) => /^(?:(?:notifylk|twilio-verify):\/\/[^\s:@/]+:[^\s@/]+@[^\s/?]+(?:\?\S*)?|outbox:)$/.test(v),
    "SMS_URL must be notifylk://USER_ID:API_KEY@SENDER_ID, twilio-verify://ACCOUNT_SID:AUTH_TOKEN@SERVICE_SID or outbox:",
  ),
  /** Texts the site may send in one UTC day, all numbers together; past it codes are refused (ADR 076). */
  SMS_DAILY_BUDGET: z.coerce
    .number({ message: "SMS_DAILY_BUDGET must be a number" })
    .int("SMS_DAILY_BUDGET must be a whole number")
    .min(0, "SMS_DAILY_BUDGET must be 0 (no texts) or more")
    .default(500),
  MAIL_FROM: z.string().min(1, "MAIL_FROM must not be empty").default("Bodima <no-reply@bodima.lk>"),
  /** The secret that signs sessions and visitor cookies; unset: generated once into DATA_DIR/secrets.json. */
  SESSION_SECRET: optionalSetting(
    (v) => v.length >= 32,
    "SESSION_SECRET must be at least 32 characters (for example: openssl rand -hex 32)",
  ),
  /** Redis for state every server shares (rate limits, ADR 041); unset: one machine keeps it in memory. */
  REDIS_URL: optionalSetting(
    (v) => /^rediss?:\/\/[^\s]+$/.test(v),
    "REDIS_URL must start with redis:// or rediss:// (for example redis://127.0.0.1:6379)",
  ),
  /** Photos in an S3-compatible bucket: s3://bucket[/prefix]?endpoint=…&region=… (credentials: AWS_* variables). */
  STORAGE_URL: optionalSetting(
    (v) => /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^?\s]*)?(\?[^\s]*)?$/.test(v),
    "STORAGE_URL must look like s3://bucket?endpoint=https://…&region=… (a bucket name in lowercase letters, digits, dots and hyphens)",
  ),
  /** Where browsers fetch photos from (a CDN or the bucket's public address); default: /photos on this site. */
  PHOTO_BASE_URL: optionalSetting(
    (v) => /^https?:\/\/[^\s?#]+$/.test(v),
    "PHOTO_BASE_URL must be an http(s) URL such as https://cdn.bodima.lk/photos",
  ),
  /** The browse map's tiles (ADR 053): a template with {z}, {x} and {y}; its origin is allowed in the CSP. */
  MAP_TILE_URL: optionalSetting(
    (v) => /^https?:\/\/[^\s{}]+\/[^\s]*\{z\}[^\s]*\{x\}[^\s]*\{y\}[^\s]*$/.test(v),
    "MAP_TILE_URL must be an http(s) address with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png",
  ),
  /** The credit the map shows for its tiles; OpenStreetMap's by default. */
  MAP_TILE_ATTRIBUTION: optionalText(),
  /** Bearer token for /metrics; unset: only a client on this machine, not through a proxy, gets it (ADR 042). */
  METRICS_TOKEN: optionalSetting((v) => v.length >= 16, "METRICS_TOKEN must be at least 16 characters"),
  /** Overrides of individual rate limits, e.g. "signupIp=1000,loginIp=50/900" (app/limits/rate-limit.server.ts). */
  RATE_LIMITS: z.string().optional(),
  /** Distinct reporters whose pending reports hide a listing until a moderator looks. */
  REPORT_AUTO_HIDE: z.coerce
    .number({ message: "REPORT_AUTO_HIDE must be a number" })
    .int("REPORT_AUTO_HIDE must be a whole number")
    .min(1, "REPORT_AUTO_HIDE must be at least 1")
    .default(3),
  /** Outside production only: the clock starts at this ISO time (app/lib/clock.ts), to try time-based rules today. */
  NOW: optionalSetting(
    (v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)),
    "NOW must be an ISO time such as 2027-01-15T09:00:00Z",
  ),
});

export type Env = z.infer<typeof envSchema> & {
  dataDir: string;
  /** The SMS provider in use: SMS_URL, else the outbox on a local site; undefined: phone confirmation is off. */
  smsUrl: string | undefined;
  siteUrl: string;
  /** SITE_URL unset or on this machine (localhost, 127.0.0.1, ::1): a developer's or tester's copy, not a public site. */
  siteIsLocal: boolean;
};

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether a site URL names this machine rather than a public host. */
export function isLocalSiteUrl(siteUrl: string): boolean {
  try {
    return LOCAL_HOSTS.has(new URL(siteUrl).hostname.toLowerCase());
  } catch {
    return false;
  }
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (env.NOW && env.NODE_ENV === "production") {
    throw new Error(
      "Invalid configuration:\n  NOW: only for trying time-based rules outside production (set NODE_ENV=development or test, or unset NOW)",
    );
  }
  const dataDir = path.resolve(env.DATA_DIR);
  const siteUrl = (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  const siteIsLocal = isLocalSiteUrl(siteUrl);
  if (env.SMS_URL === "outbox:" && env.NODE_ENV === "production" && !siteIsLocal) {
    throw new Error(
      "Invalid configuration:\n  SMS_URL: outbox: keeps codes in the database instead of texting them; a public site needs a real gateway (notifylk:// or twilio-verify://), or leave SMS_URL unset to turn phone confirmation off",
    );
  }
  const smsUrl = env.SMS_URL ?? (siteIsLocal ? "outbox:" : undefined);
  return { ...env, dataDir, siteUrl, siteIsLocal, smsUrl };
}

let cached: Env | undefined;
export function getEnv(): Env {
  cached ??= parseEnv();
  return cached;
}
