// npm run user:role -- someone@example.com moderator   (or: owner)
import { withAppModules } from "./app-modules.ts";
import { parseUserRoleArgs, USER_ROLE_USAGE } from "./user-role-args.ts";

const args = parseUserRoleArgs(process.argv.slice(2));
if ("help" in args) {
  console.log(USER_ROLE_USAGE);
  process.exit(0);
}
if ("error" in args) {
  console.error(`${args.error}\n\n${USER_ROLE_USAGE}`);
  process.exit(1);
}

try {
  await withAppModules(async (load) => {
    const { getEnv } = await load<typeof import("../app/env.server.ts")>("/app/env.server.ts");
    const { createDatabase } = await load<typeof import("../app/db/db.server.ts")>("/app/db/db.server.ts");
    const { migrateToLatest } = await load<typeof import("../app/db/migrate.server.ts")>("/app/db/migrate.server.ts");
    const { setUserRole } = await load<typeof import("../app/models/user-moderation.server.ts")>(
      "/app/models/user-moderation.server.ts",
    );
    const env = getEnv();
    const { db, destroy } = createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
    try {
      await migrateToLatest(db);
      const result = await setUserRole(db, args.email, args.role);
      const article = args.role === "owner" ? "an owner" : "a moderator";
      if (!result.ok) {
        console.error(`No account has the email ${args.email}.`);
        process.exitCode = 1;
      } else if (result.changed) console.log(`${args.email} is now ${article}.`);
      else console.log(`${args.email} is already ${article}.`);
    } finally {
      await destroy();
    }
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
