// How the workers of a machine take connections (ADR 107). No imports but types:
// the primary (server/cluster.ts) runs this file as it is with Node's type stripping.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * Each worker accepts its own connections from the port they share, instead of
 * the primary handing them out one at a time (Node's round robin). The primary
 * hands a worker its next connection only once the worker's event loop has taken
 * the last one, so in a crowd (400 connections at once) a visitor's new
 * connection waited behind hundreds of turns of renders: seconds. A worker that
 * accepts for itself takes every waiting connection in one turn, and the worker
 * that is free takes them first. `NODE_CLUSTER_SCHED_POLICY` (`rr` or `none`)
 * still chooses, for measuring one against the other.
 */
export function acceptInWorkers(
  cluster: { schedulingPolicy: number; SCHED_NONE: number },
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (!env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
}

/**
 * A kept-alive connection is closed after this many requests (its last answer
 * says `Connection: close`; the client opens another at once). Workers that
 * accept for themselves do not share connections out evenly: a burst of new
 * connections lands mostly on the worker that was free at that moment, and a
 * connection kept alive stays where it landed. Closing it now and then lets the
 * next one land on the worker that is free then. A hundred requests cost one
 * new connection per hundred (nginx keeps its own to the app for a thousand).
 */
export const REQUESTS_PER_CONNECTION = 100;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The handler, with each connection's `limit`-th answer closing it (not a 503 for what follows, as Node's own limit does). */
export function closeConnectionsAfter(handler: Handler, limit = REQUESTS_PER_CONNECTION): Handler {
  const served = new WeakMap<Socket, number>();
  return (req, res) => {
    const socket = req.socket;
    const count = (served.get(socket) ?? 0) + 1;
    served.set(socket, count);
    if (count >= limit) res.setHeader("Connection", "close");
    handler(req, res);
  };
}
