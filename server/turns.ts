/**
 * Renders take turns, first come first served, one per turn of the event loop
 * (ADR 031).
 *
 * Why: libuv accepts at most one new connection per turn of the event loop,
 * and a render (SQLite queries, React, brotli) runs to its end inside the turn
 * that read its request. Under load one turn read and rendered every request
 * waiting on an open connection (about 200 ms of work), so a visitor opening a
 * new connection waited one such turn per connection ahead of them: seconds.
 * Waiting here instead, each turn renders one page and accepts one
 * connection, and every request is served in the order it came.
 */
export type Turns = {
  /** Resolves when it is this caller's turn: in a later turn of the event loop, after everyone who asked before. */
  next(): Promise<void>;
  /** How many are waiting (for logs and tests). */
  readonly waiting: number;
};

export function createTurns(): Turns {
  const queue: (() => void)[] = [];
  let scheduled = false;

  function runOne() {
    scheduled = false;
    queue.shift()?.();
    // A turn scheduled from inside setImmediate runs in the next turn of the loop,
    // after that turn has read its sockets and accepted a connection.
    if (queue.length > 0) schedule();
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(runOne);
  }

  return {
    next() {
      return new Promise<void>((resolve) => {
        queue.push(resolve);
        schedule();
      });
    },
    get waiting() {
      return queue.length;
    },
  };
}
