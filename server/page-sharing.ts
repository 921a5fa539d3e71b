// Pages rendered by one worker, handed to the other workers of the machine
// (ADR 061) over their own sockets (ADR 122): the primary only tells each
// worker where the others listen. No imports but Node's, types and the frame
// format: the primary (server/cluster.ts) runs this file as it is with Node's
// type stripping, outside the app's build.
import cluster from "node:cluster";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { CachedPage } from "../app/cache/page-cache.server";
import { frameReader, pageFrame } from "./page-frames.ts";

/** The environment variable naming the machine's folder of page sockets: the primary sets it for its workers. */
export const SOCKET_FOLDER_ENV = "BODIMA_PAGE_SOCKETS";

/**
 * The most bytes waiting to be written to one other worker. Past it a page is not sent to that
 * worker (it renders the page itself when asked) rather than queued without bound while it is busy.
 */
export const MAX_BACKLOG_BYTES = 2 * 1024 * 1024;

/** How long a worker waits before connecting again to another worker it lost the connection to. */
export const RECONNECT_MS = 1_000;

/** A worker to the primary: its socket listens. */
type Listening = { type: "bodima:pages-listening" };
/** The primary to every worker: the workers whose sockets listen now. */
export type Peers = { type: "bodima:pages-peers"; ids: number[] };

const isListening = (m: unknown): m is Listening => (m as Listening | null)?.type === "bodima:pages-listening";
const isPeers = (m: unknown): m is Peers => (m as Peers | null)?.type === "bodima:pages-peers";

/** A worker's socket: one file per worker in the primary's folder. */
export const socketPath = (folder: string, id: number) => path.join(folder, `${id}.sock`);

/**
 * In the primary: a new folder for the workers' sockets, readable by this user alone
 * (`mkdtemp` makes it 0700), so no other user of the machine can hand a worker a page.
 * Null, said in the log, when none can be made (no writable temporary folder): the
 * workers then share nothing and each renders what it is asked, as a lone process does.
 */
export function createSocketFolder(
  log: (line: string) => void = console.error,
  parent: string = os.tmpdir(),
): string | null {
  try {
    return fs.mkdtempSync(path.join(parent, "bodima-pages-"));
  } catch (error) {
    log(`the workers will not share pages: no folder for their sockets in ${parent} (${String(error)})`);
    return null;
  }
}

/** A worker as the primary sees it. */
export type PeerWorker = {
  id: number;
  send(message: Peers): unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
  isConnected(): boolean;
};

/** In the primary: tells every worker which workers listen, each time one starts listening or is gone. */
export function peerDirectory() {
  const workers = new Map<number, PeerWorker>();
  const listening = new Set<number>();
  function announce() {
    const message: Peers = { type: "bodima:pages-peers", ids: [...listening] };
    for (const worker of workers.values()) if (worker.isConnected()) worker.send(message);
  }
  return {
    add(worker: PeerWorker): void {
      workers.set(worker.id, worker);
      worker.on("message", (message) => {
        if (!isListening(message) || !workers.has(worker.id)) return;
        listening.add(worker.id);
        announce();
      });
    },
    remove(id: number): void {
      workers.delete(id);
      if (listening.delete(id)) announce();
    },
  };
}

/**
 * What a worker does with a page another worker rendered. Kept ("kept") when every invalidation
 * this worker has read (up to `local.seen`) is one the render already saw. When the ones it did not
 * see only moved view counts (the newest that changed more, `local.changed`, it saw), kept with its
 * view count due ("views-due": ADR 113): refusing it made the worker render a page that was right
 * in all but a count. Otherwise a later write may have changed what the page shows: refused, and
 * this worker renders it itself when asked. Invalidations read after keeping it apply to it as to
 * the worker's own pages.
 */
export function acceptsSharedPage(
  local: { seen: number; changed: number },
  shared: { seen: number },
): "kept" | "views-due" | "refused" {
  if (local.seen <= shared.seen) return "kept";
  return local.changed <= shared.seen ? "views-due" : "refused";
}

/** A worker's end of the primary's channel (`process` in a cluster worker). */
export type SharingChannel = {
  send?: (message: Listening) => unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
};

/** Where this worker's socket is: the primary's folder and the worker's id; none outside a cluster. */
type Place = { folder: string; id: number } | null;

function placeInCluster(): Place {
  const folder = process.env[SOCKET_FOLDER_ENV];
  return cluster.isWorker && folder && cluster.worker ? { folder, id: cluster.worker.id } : null;
}

/**
 * The worker's side: `share` writes a page to every other worker's socket (nothing outside a
 * cluster), `receive` listens on this worker's socket and hands each page to `keep`.
 */
export function pageSharing(
  channel: SharingChannel = process as SharingChannel,
  place: Place = placeInCluster(),
  log: (message: string) => void = console.error,
) {
  const peers = new Map<number, net.Socket>();
  const here = typeof channel.send === "function" ? place : null;
  /** The other workers the primary last said listen. */
  let named: readonly number[] = [];
  function connect(id: number, folder: string) {
    const socket = net.createConnection(socketPath(folder, id));
    // Never what keeps a stopping worker alive.
    socket.unref();
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      if (peers.get(id) !== socket) return;
      peers.delete(id);
      // A connection lost to a worker still named is tried again a second later; one gone is not.
      setTimeout(() => {
        if (named.includes(id) && !peers.has(id)) connect(id, folder);
      }, RECONNECT_MS).unref();
    });
    peers.set(id, socket);
  }
  if (here)
    channel.on("message", (message) => {
      if (!isPeers(message)) return;
      named = message.ids.filter((id) => id !== here.id);
      for (const [id, socket] of peers)
        if (!named.includes(id)) {
          peers.delete(id);
          socket.destroy();
        }
      for (const id of named) if (!peers.has(id)) connect(id, here.folder);
    });
  return {
    enabled: here !== null,
    share(entry: CachedPage, seen: number): void {
      if (peers.size === 0) return;
      const frame = pageFrame(entry, seen);
      for (const socket of peers.values()) if (socket.writableLength <= MAX_BACKLOG_BYTES) socket.write(frame);
    },
    /** Bytes written to the other workers' sockets and not yet taken by them. */
    backlog(): number {
      let bytes = 0;
      for (const socket of peers.values()) bytes += socket.writableLength;
      return bytes;
    },
    receive(keep: (entry: CachedPage, seen: number) => void): void {
      if (!here) return;
      const server = net.createServer((connection) => {
        connection.unref();
        const read = frameReader(keep);
        connection.on("data", (chunk: Buffer) => {
          try {
            read(chunk);
          } catch (error) {
            log(`page sharing: dropped a connection (${String(error)})`);
            connection.destroy();
          }
        });
        connection.on("error", () => connection.destroy());
      });
      server.on("error", (error) => log(`page sharing: this worker's socket does not listen (${String(error)})`));
      server.listen(socketPath(here.folder, here.id), () => channel.send?.({ type: "bodima:pages-listening" }));
      server.unref();
    },
  };
}
