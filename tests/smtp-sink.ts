// A real SMTP server for browser tests (a Playwright webServer): accepts every
// message (no TLS, any login) and writes it to SMTP_SINK_DIR as JSON
// { from, to, subject, replyTo, text, html, raw } for tests/e2e/mail.ts to read.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { parseMail } from "./parse-mail.ts";

const port = Number(process.env.SMTP_SINK_PORT);
const dir = process.env.SMTP_SINK_DIR;
if (!port || !dir) throw new Error("SMTP_SINK_PORT and SMTP_SINK_DIR are required");
fs.mkdirSync(dir, { recursive: true });

const server = new SMTPServer({
  authOptional: true,
  allowInsecureAuth: true,
  disabledCommands: ["STARTTLS"],
  onAuth(_auth, _session, callback) {
    callback(null, { user: "test" });
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", callback);
    stream.on("end", () => {
      const mail = parseMail(Buffer.concat(chunks).toString("utf8"), {
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        to: session.envelope.rcptTo.map((r) => r.address),
      });
      const name = `${Date.now()}-${randomBytes(4).toString("hex")}.json`;
      // Written then renamed, so a reader never sees half a file.
      fs.writeFileSync(path.join(dir, `.${name}`), JSON.stringify(mail, null, 2));
      fs.renameSync(path.join(dir, `.${name}`), path.join(dir, name));
      callback();
    });
  },
});

server.listen(port, "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.close(() => process.exit(0)));
