// Questions from a cluster worker to the primary process and their answers, over
// the cluster's IPC channel (ADR 040): the machine's rate limits and
// the summed /metrics. No imports: the primary (server/cluster.ts) runs this
// file as it is with Node's type stripping, outside the app's build.

type Question = { type: "bodima:ask"; id: number; topic: string; body: unknown };
type Answer = { type: "bodima:answer"; id: number; result?: unknown; error?: string };

/** The worker's end of the channel (`process` in a cluster worker). */
export type WorkerChannel = {
  send?: (message: Question) => unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
};

/** The primary's end of one worker's channel (a cluster Worker). */
export type PrimaryChannel = {
  send(message: Answer): unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
  isConnected(): boolean;
};

/** Asks the primary; rejects when it has no primary, answers with an error, or says nothing within the timeout. */
export type Ask = <T>(topic: string, body?: unknown, timeoutMs?: number) => Promise<T>;

const isQuestion = (m: unknown): m is Question => (m as Question | null)?.type === "bodima:ask";
const isAnswer = (m: unknown): m is Answer => (m as Answer | null)?.type === "bodima:answer";

const askers = new WeakMap<WorkerChannel, Ask>();

/** One asker per channel: one listener, and ids that never repeat within the process. */
export function askPrimary(channel: WorkerChannel = process as WorkerChannel, defaultTimeoutMs = 2_000): Ask {
  const known = askers.get(channel);
  if (known) return known;
  let nextId = 1;
  const waiting = new Map<number, (answer: Answer) => void>();
  channel.on("message", (message) => {
    if (!isAnswer(message)) return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const ask: Ask = <T>(topic: string, body?: unknown, timeoutMs = defaultTimeoutMs) =>
    new Promise<T>((resolve, reject) => {
      if (!channel.send) {
        reject(new Error(`${topic}: this process has no primary to ask`));
        return;
      }
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`${topic}: the primary process did not answer`));
      }, timeoutMs);
      timer.unref();
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        if (answer.error !== undefined) reject(new Error(`${topic}: ${answer.error}`));
        else resolve(answer.result as T);
      });
      channel.send({ type: "bodima:ask", id, topic, body });
    });
  askers.set(channel, ask);
  return ask;
}

/** Answers one worker's questions, each topic by its handler (in the primary). */
export function answerWorker(
  worker: PrimaryChannel,
  handlers: Record<string, (body: unknown) => Promise<unknown>>,
): void {
  worker.on("message", (message) => {
    if (!isQuestion(message)) return;
    const reply = (answer: Omit<Answer, "type" | "id">) =>
      worker.isConnected() && worker.send({ type: "bodima:answer", id: message.id, ...answer });
    const handler = Object.hasOwn(handlers, message.topic) ? handlers[message.topic] : undefined;
    if (!handler) {
      reply({ error: `nothing answers ${message.topic}` });
      return;
    }
    handler(message.body).then(
      (result) => reply({ result }),
      (error: unknown) => reply({ error: String(error) }),
    );
  });
}
