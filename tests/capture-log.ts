import { Writable } from "node:stream";
import pino, { type Logger } from "pino";

/** A pino logger whose JSON lines are kept in `lines`, for tests that check what was logged. */
export function captureLog(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: "info" }, stream), lines };
}
