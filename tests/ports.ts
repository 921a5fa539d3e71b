/**
 * Every port the browser and system tiers listen on, as offsets from E2E_PORT (3210 unless set): one
 * per server that may be up while another is. Tests run three at a time (ADR 114), so two tests that
 * share a port fail at random with EADDRINUSE; here a second use of an offset stops every run at once.
 */
const offsets = {
  // Browser tier (playwright.config.ts): its servers, up for the whole run.
  sqliteServer: 0,
  postgresServer: 1,
  smsGateway: 2,
  smtpSink: 5,
  // Browser tier: specs that start a server of their own (tests/e2e/spawn-server.ts).
  insights: 3,
  serviceWorkerDeploy: 4,
  publicSite: 6,
  productionBuild: 7,
  viewBeforeSigterm: 16,
  smsOutboxRefused: 17,
  // System tier (playwright.system.config.ts).
  cluster: 8,
  redis: 9,
  crashSqlite: 10,
  crashPostgres: 11,
  scaleOutProxy: 12,
  scaleOutA: 13,
  scaleOutB: 14,
  accept: 15,
} as const;

const taken = new Map<number, string>();
for (const [name, offset] of Object.entries(offsets)) {
  const other = taken.get(offset);
  if (other) throw new Error(`tests/ports.ts: ${name} and ${other} both listen on E2E_PORT + ${offset}`);
  taken.set(offset, name);
}

const base = Number(process.env.E2E_PORT ?? 3210);

export const ports = Object.fromEntries(
  Object.entries(offsets).map(([name, offset]) => [name, base + offset]),
) as Record<keyof typeof offsets, number>;
