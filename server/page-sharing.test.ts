import { EventEmitter } from "node:events";
import fs from "node:fs";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { CachedPage } from "../app/cache/page-cache.server";
import {
  acceptsSharedPage,
  createSocketFolder,
  MAX_BACKLOG_BYTES,
  type Peers,
  type PeerWorker,
  pageSharing,
  peerDirectory,
  socketPath,
} from "./page-sharing";

// ADR 061 and 122: the workers of a machine hand each other the pages they render, over their own
// sockets; the primary only says which workers listen. Real Unix sockets in a real folder here.

// One expiry for every entry: two calls a millisecond apart must build equal pages.
const EXPIRES_AT = Date.now() + 60_000;

function entry(key: string, body = "compressed"): CachedPage {
  return {
    key,
    kind: "list",
    headers: [["content-type", "text/html"]],
    etag: 'W/"x"',
    variants: { br: Buffer.from(body) },
    expiresAt: EXPIRES_AT,
    bytes: 20,
  };
}

/** A worker as the primary sees it: what it was sent, and what it says. */
function fakeWorker(id: number, connected = true) {
  const events = new EventEmitter();
  const received: Peers[] = [];
  const worker: PeerWorker & { received: Peers[]; says(m: unknown): void } = {
    id,
    received,
    send: (message) => received.push(message),
    on: (event, listener) => events.on(event, listener),
    isConnected: () => connected,
    says: (message) => events.emit("message", message),
  };
  return worker;
}

/** A worker's side in this process: its channel to a pretend primary, and the pages it kept. */
function worker(folder: string, id: number) {
  const primary = new EventEmitter();
  const told: unknown[] = [];
  const channel = {
    send: (m: unknown) => told.push(m),
    on: (e: "message", l: (m: unknown) => void) => primary.on(e, l),
  };
  const sharing = pageSharing(channel, { folder, id }, () => undefined);
  const kept: [CachedPage, number][] = [];
  sharing.receive((page, seen) => kept.push([page, seen]));
  return {
    sharing,
    kept,
    told,
    peers: (ids: number[]) => primary.emit("message", { type: "bodima:pages-peers", ids }),
  };
}

const folders: string[] = [];
function folder(): string {
  const made = createSocketFolder();
  if (!made) throw new Error("no folder for the test's sockets");
  folders.push(made);
  return made;
}
afterEach(() => {
  for (const made of folders.splice(0)) fs.rmSync(made, { recursive: true, force: true });
});

describe("sharing rendered pages between the workers of a machine", () => {
  it("keeps a page only when the render saw every invalidation this worker has applied", () => {
    // Rendered after invalidation 7 was read: it shows changes up to 7.
    expect(acceptsSharedPage({ seen: 7, changed: 7 }, { seen: 7 })).toBe("kept");
    // This worker is behind: changes 6 and 7 are already in the page, and dropping it again when they arrive is harmless.
    expect(acceptsSharedPage({ seen: 5, changed: 5 }, { seen: 7 })).toBe("kept");
    // This worker already dropped pages for change 8, which the render may not show: refused.
    expect(acceptsSharedPage({ seen: 8, changed: 8 }, { seen: 7 })).toBe("refused");
    expect(acceptsSharedPage({ seen: 9, changed: 8 }, { seen: 7 })).toBe("refused");
  });

  it("keeps a page the render made before views this worker has read, with its view count due (ADR 113)", () => {
    // Invalidations 8 and 9 only moved view counts; the last write this worker read was 6.
    expect(acceptsSharedPage({ seen: 9, changed: 6 }, { seen: 7 })).toBe("views-due");
    expect(acceptsSharedPage({ seen: 9, changed: 7 }, { seen: 7 })).toBe("views-due");
  });

  it("the primary tells every worker which workers listen, each time that changes", () => {
    const [a, b, gone] = [fakeWorker(1), fakeWorker(2), fakeWorker(3, false)];
    const directory = peerDirectory();
    for (const w of [a, b, gone]) directory.add(w);
    a.says({ type: "bodima:pages-listening" });
    b.says({ type: "bodima:ask", id: 1, topic: "metrics" });
    b.says({ type: "bodima:pages-listening" });
    expect(a.received).toEqual([
      { type: "bodima:pages-peers", ids: [1] },
      { type: "bodima:pages-peers", ids: [1, 2] },
    ]);
    expect(gone.received).toEqual([]);
    directory.remove(1);
    expect(b.received.at(-1)).toEqual({ type: "bodima:pages-peers", ids: [2] });
  });

  it("keeps the sockets' folder to this user alone: no one else on the machine can hand a worker a page", () => {
    expect(fs.statSync(folder()).mode & 0o777).toBe(0o700);
  });

  it("without a folder for the sockets the server still starts: it says so, and the workers share nothing", () => {
    const said: string[] = [];
    expect(createSocketFolder((line) => said.push(line), "/nonexistent/bodima")).toBeNull();
    expect(said).toEqual([expect.stringContaining("will not share pages")]);
  });

  it("a page one worker keeps reaches the others over their sockets, never itself, bodies as Buffers", async () => {
    const dir = folder();
    const [a, b, c] = [worker(dir, 1), worker(dir, 2), worker(dir, 3)];
    await expect.poll(() => [a, b, c].map((w) => w.told.length)).toEqual([1, 1, 1]);
    expect(a.told).toEqual([{ type: "bodima:pages-listening" }]);
    for (const w of [a, b, c]) w.peers([1, 2, 3]);
    a.sharing.share(entry("/browse", "බෝඩිම"), 4);
    await expect.poll(() => [b.kept.length, c.kept.length]).toEqual([1, 1]);
    expect(b.kept[0]).toEqual([entry("/browse", "බෝඩිම"), 4]);
    expect(Buffer.isBuffer(b.kept[0][0].variants.br)).toBe(true);
    expect(a.kept).toEqual([]);
    // A worker gone from the primary's list gets nothing more.
    a.peers([1, 2]);
    a.sharing.share(entry("/about"), 5);
    await expect.poll(() => b.kept.length).toBe(2);
    expect(c.kept).toHaveLength(1);
  });

  it("a connection lost to a worker the primary still names is made again", async () => {
    const dir = folder();
    const a = worker(dir, 1);
    // Worker 2 is named before its socket listens: the first connection fails.
    a.peers([1, 2]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const b = worker(dir, 2);
    await expect.poll(() => b.told.length).toBe(1);
    await expect
      .poll(
        () => {
          a.sharing.share(entry("/again"), 1);
          return b.kept.length > 0;
        },
        { timeout: 5_000, interval: 250 },
      )
      .toBe(true);
  });

  it("a connection that sends what no worker would write is dropped, and the worker still takes pages", async () => {
    const dir = folder();
    const b = worker(dir, 2);
    await expect.poll(() => b.told.length).toBe(1);
    const stranger = net.createConnection(socketPath(dir, 2));
    const closed = new Promise((resolve) => stranger.on("close", resolve));
    stranger.on("error", () => undefined);
    stranger.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2, 3]));
    await closed;
    const a = worker(dir, 1);
    a.peers([1, 2]);
    a.sharing.share(entry("/"), 1);
    await expect.poll(() => b.kept.length).toBe(1);
  });

  it("does not queue pages without bound for a worker that does not read them", async () => {
    const dir = folder();
    // A socket where worker 2 would listen, that accepts and never reads.
    const held: net.Socket[] = [];
    const deaf = net.createServer((connection) => {
      connection.pause();
      held.push(connection);
    });
    await new Promise<void>((resolve) => deaf.listen(socketPath(dir, 2), resolve));
    const a = worker(dir, 1);
    a.peers([1, 2]);
    const page = entry("/big", "x".repeat(256 * 1024));
    for (let i = 0; i < 200; i++) a.sharing.share(page, i);
    // 50 MB offered; what waits is bounded by the backlog and the kernel's buffers.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(held).toHaveLength(1);
    expect(a.sharing.backlog()).toBeGreaterThan(0);
    expect(a.sharing.backlog()).toBeLessThanOrEqual(MAX_BACKLOG_BYTES + page.bytes + 300 * 1024);
    for (const connection of held) connection.destroy();
    deaf.close();
  });

  it("a process outside a cluster shares nothing", () => {
    const sharing = pageSharing({ on: () => undefined }, null);
    expect(sharing.enabled).toBe(false);
    expect(() => sharing.share(entry("/"), 1)).not.toThrow();
    // Nor does one whose parent gave it an IPC channel (vitest's own worker here): only cluster workers share.
    expect(pageSharing().enabled).toBe(false);
  });
});
