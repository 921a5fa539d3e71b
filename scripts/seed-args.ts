export const MAX_SEED_LISTINGS = 1_000_000;

export const SEED_USAGE = `Usage: npm run seed -- --listings N

Adds N synthetic listings (1 to ${MAX_SEED_LISTINGS.toLocaleString("en-US")}) to the database the server uses
(DATA_DIR, or DATABASE_URL for PostgreSQL), after running migrations.`;

export type SeedArgs = { listings: number } | { help: true } | { error: string };

/** Reads `--listings N` (or `--listings=N`) and `--help`. */
export function parseSeedArgs(argv: readonly string[]): SeedArgs {
  let listings: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") return { help: true };
    if (arg === "--listings") listings = argv[++i];
    else if (arg.startsWith("--listings=")) listings = arg.slice("--listings=".length);
    else return { error: `Unknown argument: ${arg}` };
  }
  if (listings === undefined) return { error: "Missing --listings N" };
  if (!/^\d+$/.test(listings)) return { error: "--listings must be a whole number" };
  const n = Number(listings);
  if (n < 1 || n > MAX_SEED_LISTINGS) return { error: `--listings must be between 1 and ${MAX_SEED_LISTINGS}` };
  return { listings: n };
}
