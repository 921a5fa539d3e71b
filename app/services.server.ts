import cluster from "node:cluster";
import type { Redis } from "ioredis";
import pino, { type DestinationStream, type Logger } from "pino";
import { createContext } from "react-router";
import { type Secrets, secretsFor } from "~/security/secrets.server";
import type { CountMemo } from "./db/count-memo.server";
import { createDatabase, type DB, type DialectName } from "./db/db.server";
import { warnAboutDatabase } from "./db/maintenance.server";
import { migrateToLatest } from "./db/migrate.server";
import { type Env, getEnv } from "./env.server";
import type { Locale } from "./i18n/translator.server";
import { startJobs } from "./jobs/jobs.server";
import { setClock } from "./lib/clock";
import { setMapTiles } from "./lib/map-tiles";
import { setPhotoBaseUrl } from "./lib/photo-urls";
import { askPrimary } from "./lib/primary-ipc";
import { createPrimaryStore } from "./limits/cluster-store.server";
import {
  createMemoryStore,
  createRateLimiter,
  parseLimitOverrides,
  type RateLimiter,
  type RateLimitStore,
} from "./limits/rate-limit.server";
import { connectRedis, createRedisStore } from "./limits/redis-store.server";
import { phoneCodeText } from "./mail/phone-code-text.server";
import { startMailSender } from "./mail/sender.server";
import { createMailTransport } from "./mail/transport.server";
import { createPhoneConfirmation, type PhoneConfirmation } from "./models/phone-confirmation.server";
import { redactUrl } from "./security/redact-url";
import { smsProviderFor } from "./sms/sms-provider.server";
import { type PhotoStorage, photoStorageFor } from "./storage/storage.server";

/** Long-lived things created once at start-up and shared by every request. */
export type Services = {
  env: Env;
  db: DB;
  dialect: DialectName;
  logger: Logger;
  storage: PhotoStorage;
  secrets: Secrets;
  limiter: RateLimiter;
  /** Phones confirmed by a code texted through SMS_URL's provider (ADR 075, 076); `enabled` false without one. */
  phones: PhoneConfirmation;
  /** The Redis client when REDIS_URL is set and this process serves requests (health checks, shutdown). */
  redis?: Redis;
  /** Stops the mail sender and the timed jobs, letting runs under way finish and give up their leases (SIGTERM). */
  stopBackground?: () => Promise<void>;
};

/** Per-request values, available to every loader and action through context. */
export type RequestInfo = Services & {
  requestId: string;
  clientIp: string;
  /**
   * The language this request is answered in. Set from the URL
   * (/si, /ta; ADR 033), and loaders, actions and emails follow it (ADR 028).
   */
  locale: Locale;
  log: Logger;
  /** This response's CSP nonce for inline scripts (app/security/headers.server.ts); absent outside HTTP. */
  nonce?: string;
  /** Data saver is on for this request (Save-Data or the footer's switch, ADR 090); absent outside HTTP. */
  dataSaver?: boolean;
  /**
   * Counts remembered until the pages showing them change (ADR 096); absent outside HTTP and for
   * someone signed in, whose pages are rendered fresh and count every time.
   */
  counts?: CountMemo;
  /** Adds a Set-Cookie header to this request's response (a refreshed session cookie); absent outside HTTP. */
  setCookie?: (cookie: string) => void;
};

export const requestContext = createContext<RequestInfo>();

export { type Secrets, secretsFor };

/**
 * The app's logger: JSON lines, with secrets in logged URLs (reset tokens,
 * passwords, codes in a query) redacted wherever a line carries a `url`.
 */
export function createLogger(level: Env["LOG_LEVEL"], destination?: DestinationStream): Logger {
  const serializers = { url: (url: unknown) => (typeof url === "string" ? redactUrl(url) : url) };
  return destination
    ? pino({ level, base: undefined, serializers }, destination)
    : pino({ level, base: undefined, serializers });
}

let servicesPromise: Promise<Services> | undefined;

/**
 * The server's services, with its background work (mail sender, timed jobs)
 * running. Scripts that only need the database and storage use
 * `createServices({ background: false })`.
 */
export function getServices(): Promise<Services> {
  servicesPromise ??= createServices({ background: true });
  return servicesPromise;
}

/** How long a server's idle PostgreSQL connection stays open (ADR 137): five minutes, not node-postgres's 10 s. */
export const SERVER_IDLE_CONNECTION_MS = 5 * 60_000;

export type ServiceOptions = {
  background: boolean;
  /** Tests start services on a configuration and log of their own; otherwise process.env and standard output. */
  env?: Env;
  logger?: Logger;
};

export async function createServices(options: ServiceOptions): Promise<Services> {
  const env = options.env ?? getEnv();
  const logger = options.logger ?? createLogger(env.LOG_LEVEL);
  setClock(env.NOW);
  if (env.NOW) logger.warn({ now: env.NOW }, "the clock starts at NOW (only outside production)");
  const { db, dialect } = createDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.dataDir,
    // A server keeps its PostgreSQL connections warm between bursts (ADR 137).
    idleConnectionMs: options.background ? SERVER_IDLE_CONNECTION_MS : undefined,
    // A server's requests never wait for SQLite's checkpoints (ADR 130).
    checkpointThread: options.background
      ? (error) => logger.error({ error }, "could not checkpoint the SQLite write-ahead log")
      : undefined,
  });
  await migrateToLatest(db);
  const secrets = secretsFor(env);
  const storage = photoStorageFor(env);
  setPhotoBaseUrl(env.PHOTO_BASE_URL);
  setMapTiles(env.MAP_TILE_URL, env.MAP_TILE_ATTRIBUTION);
  // Redis only for a process that serves requests: scripts count nothing worth sharing.
  const redis = options.background && env.REDIS_URL ? connectRedis(env.REDIS_URL) : undefined;
  const limiter = createRateLimiter(limitStoreFor(options.background, redis), parseLimitOverrides(env.RATE_LIMITS));
  const phones = phoneConfirmationFor({ env, db, limiter, secrets, logger });
  const services: Services = { env, db, dialect, logger, storage, secrets, limiter, phones, redis };
  await addDemoDataIfWanted(services);
  warnAboutConfiguration(env, logger);
  if (!options.background) return services;
  await warnAboutDatabase(db, logger);
  const transport = mailTransportFor(env, logger);
  const sender = startMailSender({ db, transport, log: logger });
  const jobs = startJobs({ db, env, storage, log: logger, mail: () => transport });
  services.stopBackground = async () => {
    await Promise.all([sender.stop(), jobs.stop()]);
    redis?.disconnect();
  };
  logger.info(
    {
      dialect,
      dataDir: env.dataDir,
      mail: transport.name,
      sms: env.smsUrl ? env.smsUrl.split(":")[0] : "off",
      rateLimits: redis ? "redis" : cluster.isWorker ? "primary" : "memory",
    },
    "services ready",
  );
  return services;
}

/**
 * Where rate limits count: in Redis when REDIS_URL is set (every server, ADR 041);
 * else a cluster worker serving requests asks the primary process (one count per
 * machine, ADR 040); a single process or a script counts in its own memory.
 */
function limitStoreFor(serving: boolean, redis: Redis | undefined): RateLimitStore {
  if (redis) return createRedisStore(redis);
  return serving && cluster.isWorker ? createPrimaryStore(askPrimary()) : createMemoryStore();
}

/** Phone confirmation through SMS_URL's provider (the outbox on a local site; off on a public one without it). */
export function phoneConfirmationFor(
  services: Pick<Services, "env" | "db" | "limiter" | "secrets" | "logger">,
): PhoneConfirmation {
  const { env, db } = services;
  return createPhoneConfirmation({
    db,
    sms: env.smsUrl ? smsProviderFor(env.smsUrl, db, services.logger) : undefined,
    limiter: services.limiter,
    secret: services.secrets.sessionSecret,
    dailyBudget: env.SMS_DAILY_BUDGET,
    codeText: phoneCodeText,
    log: services.logger,
  });
}

/** The configured mail transport (SMTP_URL, else the log, which hides links' tokens on a public site). */
export function mailTransportFor(env: Env, logger: Logger) {
  return createMailTransport({
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    log: logger,
    redactLinks: !env.siteIsLocal,
  });
}

/**
 * Demo data (with three owners whose password the README prints) goes only
 * into a copy running on this machine, or where an operator asks for it
 * (SEED_DEMO=always): a public site never gets it by default (ADR 018).
 */
export async function addDemoDataIfWanted(services: Services): Promise<void> {
  const { env, logger } = services;
  if (env.SEED_DEMO === "never") return;
  if (env.SEED_DEMO === "auto" && !env.siteIsLocal) {
    logger.info(
      { siteUrl: env.siteUrl },
      "no demo data: SITE_URL is a public address (SEED_DEMO=always adds it to an empty database)",
    );
    return;
  }
  const { seedDemoIfEmpty } = await import("./seed/demo.server");
  const added = await seedDemoIfEmpty(services);
  if (added > 0) logger.info({ listings: added }, "demo data added to an empty database");
}

/** Settings that let the site run but break something people rely on: said once, at start-up. */
function warnAboutConfiguration(env: Env, logger: Logger): void {
  if (!env.siteIsLocal && !env.SMTP_URL) {
    logger.warn(
      { siteUrl: env.siteUrl },
      "SMTP_URL is not set on a public site: password-reset emails and contact-form messages cannot be delivered (they are only kept in the outbox as 'logged'). Set SMTP_URL to send them.",
    );
  }
  if (!env.smsUrl) {
    logger.warn(
      { siteUrl: env.siteUrl },
      "SMS_URL is not set on a public site: phone confirmation is off (no codes are texted and ads carry no phone badge). Set SMS_URL to a gateway (notifylk:// or twilio-verify://) to turn it on.",
    );
  }
}
