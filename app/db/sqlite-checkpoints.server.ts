import { Worker } from "node:worker_threads";

/**
 * WAL checkpoints on a thread of their own (ADR 130). By default SQLite
 * checkpoints inside whichever commit takes the write-ahead log past 1,000
 * pages: that commit copies the pages into the database file and syncs it,
 * synchronously, in the middle of a request, and node:sqlite blocks the event
 * loop of the whole process meanwhile (in a soak, commits took 1.3 ms on
 * average but up to 103 ms). A server's connections instead leave the
 * checkpoints to a thread: every second it copies what it can without waiting
 * for anyone (PASSIVE); once the log holds more than RESTART_FRAMES it also
 * waits for the writers of that moment and starts the log over (RESTART), or
 * the log would keep growing while writes never pause.
 */

/** How often the thread checkpoints: a second of writes is a few hundred pages at most. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/** Pages in the log past which the thread starts it over: SQLite's own automatic checkpoint size. */
export const RESTART_FRAMES = 1000;

/**
 * A server connection's own automatic checkpoint, kept as a backstop: 16,000
 * pages (64 MB), reached only if the thread has stopped, and then the log is
 * still kept from growing without end.
 */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 16_000;

/** Runs in the thread (plain JavaScript: the build does not bundle it). */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { DatabaseSync } = require("node:sqlite");
const db = new DatabaseSync(workerData.filename);
// Waiting here blocks nothing but this thread.
db.exec("PRAGMA busy_timeout = 1000");
const passive = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
const restart = db.prepare("PRAGMA wal_checkpoint(RESTART)");
const timer = setInterval(() => {
  try {
    if (passive.get().log > workerData.restartFrames) restart.get();
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  }
}, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export type CheckpointThread = { stop(): Promise<void> };

/**
 * Starts checkpointing `filename` every CHECKPOINT_INTERVAL_MS on a thread of its own.
 * `onError` hears of a failed checkpoint (the backstop still bounds the log).
 */
export function startCheckpointThread(
  filename: string,
  { onError }: { onError: (message: string) => void },
): CheckpointThread {
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { filename, intervalMs: CHECKPOINT_INTERVAL_MS, restartFrames: RESTART_FRAMES },
  });
  // It never keeps a process alive on its own.
  worker.unref();
  worker.on("message", (message: { error?: string }) => {
    if (message.error) onError(message.error);
  });
  worker.on("error", (error) => onError(error.message));
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    async stop() {
      // Held by the thread until it has ended: an unref'd thread's exit never comes to a process
      // with nothing else to do, and a script awaiting destroy() would end unfinished (or wait forever).
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
