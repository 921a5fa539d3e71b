import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { parseMail, type ReceivedMail } from "./parse-mail";

export type TestSmtpServer = { port: number; received: ReceivedMail[]; close: () => Promise<void> };

/** A real SMTP server on 127.0.0.1 (port 0: any free port) that keeps what it receives. */
export async function startTestSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "test" });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        received.push(
          parseMail(Buffer.concat(chunks).toString("utf8"), {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
          }),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (for now): connections to it are refused. */
export async function closedPort(): Promise<number> {
  const server = await startTestSmtpServer();
  await server.close();
  return server.port;
}
