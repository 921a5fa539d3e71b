// npm run job -- <name> [<name>…]   runs background jobs once, in order, in one
// process on one clock (see the README's list), then exits.
// First, so that loading the app's modules already yields to the server (ADR 142).
import "./yield-to-requests.ts";
import { withAppModules } from "./app-modules.ts";

const names = process.argv.slice(2);

try {
  await withAppModules(async (load) => {
    const { JOBS, JOB_NAMES, isJobName, runJobs } =
      await load<typeof import("../app/jobs/jobs.server.ts")>("/app/jobs/jobs.server.ts");
    const usage = `Usage: npm run job -- <name> [<name>…]\n\nRuns each named job once, in order, in one process on one clock (NOW).\n\nJobs:\n${JOB_NAMES.map((n) => `  ${n.padEnd(24)} ${JOBS[n].description}`).join("\n")}`;
    if (names.length === 0 || names.includes("--help") || names.includes("-h")) {
      console.log(usage);
      return;
    }
    const jobs = names.filter(isJobName);
    const unknown = names.find((name) => !isJobName(name));
    if (unknown !== undefined) {
      console.error(`There is no job called "${unknown}".\n\n${usage}`);
      process.exitCode = 2;
      return;
    }
    const { createServices, mailTransportFor } =
      await load<typeof import("../app/services.server.ts")>("/app/services.server.ts");
    const services = await createServices({ background: false });
    const { env, db, storage, logger } = services;
    const transport = mailTransportFor(env, logger);
    try {
      const runs = await runJobs(jobs, { db, env, storage, log: logger, mail: () => transport });
      for (const { name, counts } of runs) {
        console.log(
          `${name}: ${
            Object.entries(counts)
              .map(([k, v]) => `${k} ${v}`)
              .join(", ") || "done"
          }`,
        );
      }
    } finally {
      transport.close();
      await db.destroy();
    }
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
