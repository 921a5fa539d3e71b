export const USER_ROLE_USAGE = `Usage: npm run user:role -- EMAIL ROLE

Gives the account with that email the role ROLE: "moderator" (may use /admin)
or "owner" (takes the moderator role back). Uses the database the server uses
(DATA_DIR, or DATABASE_URL for PostgreSQL).`;

export const ROLE_NAMES = ["owner", "moderator"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export type UserRoleArgs = { email: string; role: RoleName } | { help: true } | { error: string };

export function parseUserRoleArgs(argv: readonly string[]): UserRoleArgs {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  if (argv.length !== 2) return { error: "Give an email and a role." };
  const [email, role] = argv;
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) return { error: `Not an email address: ${email}` };
  if (!(ROLE_NAMES as readonly string[]).includes(role))
    return { error: `Unknown role "${role}": use owner or moderator.` };
  return { email, role: role as RoleName };
}
