// npm run job -- <name>   runs one background job once (see the README's list), then exits.
import { withAppModules } from "./app-modules.ts";

const name = process.argv[2];

try {
  await withAppModules(async (load) => {
    const { JOBS, JOB_NAMES, isJobName, runJob } =
      await load<typeof import("../app/jobs/jobs.server.ts")>("/app/jobs/jobs.server.ts");
    const usage = `Usage: npm run job -- <name>\n\nJobs:\n${JOB_NAMES.map((n) => `  ${n.padEnd(24)} ${JOBS[n].description}`).join("\n")}`;
    if (!name || name === "--help" || name === "-h") {
      console.log(usage);
      return;
    }
    if (!isJobName(name)) {
      console.error(`There is no job called "${name}".\n\n${usage}`);
      process.exitCode = 2;
      return;
    }
    const { createServices, mailTransportFor } =
      await load<typeof import("../app/services.server.ts")>("/app/services.server.ts");
    const services = await createServices({ background: false });
    const { env, db, storage, logger } = services;
    const transport = mailTransportFor(env, logger);
    try {
      const counts = await runJob(name, { db, env, storage, log: logger, mail: () => transport });
      console.log(
        `${name}: ${
          Object.entries(counts)
            .map(([k, v]) => `${k} ${v}`)
            .join(", ") || "done"
        }`,
      );
    } finally {
      transport.close();
      await db.destroy();
    }
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
