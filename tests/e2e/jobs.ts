import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ports } from "../ports";

const run = promisify(execFile);

/**
 * `npm run job -- <name>…` against the test server's data (its DATA_DIR), as an
 * operator would run it (house rule 11), answering what it printed. Several
 * names run in one process, on one clock. With `now` it runs on that clock
 * (NOW, which needs a NODE_ENV other than production, as the README's recipes
 * say). By default its mail is queued for the server's own sender; with `smtp`
 * the job itself sends to the test SMTP sink (tests/ports.ts: smtpSink),
 * for a `send-mail` run at `now`.
 */
export async function runJob(
  names: string | readonly string[],
  baseURL: string,
  options: { now?: Date; smtp?: boolean } = {},
) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: process.env.E2E_DATA_DIR,
    SITE_URL: baseURL,
    LOG_LEVEL: "warn",
  };
  if (options.now) {
    env.NOW = options.now.toISOString();
    env.NODE_ENV = "development";
  }
  if (options.smtp) env.SMTP_URL = `smtp://127.0.0.1:${ports.smtpSink}`;
  const { stdout } = await run("npm", ["run", "--silent", "job", "--", ...[names].flat()], { env });
  return stdout;
}
