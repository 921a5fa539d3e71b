// Imported first by `npm run job`: a job run beside the server (by cron, by hand, by the soak) takes
// the CPU only when the server's workers leave it (ADR 142). Starting a job costs about a second of
// CPU (loading the app's modules), which on two cores held up the requests of that second.
import os from "node:os";

try {
  // Linux sets the calling thread's priority; threads started after it (libuv's pool) inherit it.
  os.setPriority(os.constants.priority.PRIORITY_LOW);
} catch {
  // A system that does not allow it runs the job at the usual priority.
}
