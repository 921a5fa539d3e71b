import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Env } from "~/env.server";

export type Secrets = { sessionSecret: string; visitorSalt: string };

/**
 * The session secret and the visitor salt: from SESSION_SECRET when set (every
 * server of a site must sign and hash alike; the salt is derived from it), else
 * generated on first start and kept in DATA_DIR/secrets.json, so one machine
 * needs no set-up.
 */
export function secretsFor(env: Pick<Env, "SESSION_SECRET" | "dataDir">): Secrets {
  if (env.SESSION_SECRET) {
    const visitorSalt = createHash("sha256").update(`bodima visitor salt\n${env.SESSION_SECRET}`).digest("hex");
    return { sessionSecret: env.SESSION_SECRET, visitorSalt: visitorSalt.slice(0, 32) };
  }
  return loadOrCreateSecrets(env.dataDir);
}

function loadOrCreateSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, "secrets.json");
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Secrets>;
    if (parsed.sessionSecret && parsed.visitorSalt) return parsed as Secrets;
  } catch {
    // missing or unreadable: create below
  }
  const secrets: Secrets = {
    sessionSecret: randomBytes(32).toString("hex"),
    visitorSalt: randomBytes(16).toString("hex"),
  };
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
