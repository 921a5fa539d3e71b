import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startServer } from "../e2e/spawn-server";
import { ports } from "../ports";

// ADR 107: `npm start` as shipped (two workers) lets each worker accept its own
// connections from the shared port, instead of the primary handing them out one
// per turn of a busy worker's event loop, and closes a kept-alive connection with
// its 100th answer so that the next one lands on whichever worker is free.

const port = ports.accept;
const base = `http://127.0.0.1:${port}`;

test.describe.configure({ mode: "serial" });

let dataDir: string;
let run: ReturnType<typeof startServer>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-accept-"));
  const env: NodeJS.ProcessEnv = { WEB_CONCURRENCY: "2", SITE_URL: base };
  run = startServer(dataDir, "never", { port, env });
  await run.started;
});

test.afterAll(async () => {
  if (run.server.exitCode === null) {
    run.stop();
    await run.exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The inode of the socket listening on `port` (from /proc/net/tcp: state 0A is LISTEN). */
function listeningInode(): string | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of fs.readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === "0A") return fields[9];
    }
  }
  return undefined;
}

/** The socket inodes a process holds open. */
function socketsOf(pid: number): Set<string> {
  const sockets = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) sockets.add(match[1]);
    } catch {
      // closed meanwhile
    }
  }
  return sockets;
}

function workerPids(): number[] {
  const children = fs.readFileSync(`/proc/${run.server.pid}/task/${run.server.pid}/children`, "utf8");
  return children.trim().split(/\s+/).map(Number);
}

test("each worker listens on the port itself, rather than waiting to be handed connections", () => {
  const inode = listeningInode();
  expect(inode).toBeDefined();
  const workers = workerPids();
  expect(workers).toHaveLength(2);
  // With round robin only the primary holds the listening socket.
  for (const pid of workers) expect(socketsOf(pid).has(inode as string)).toBe(true);
});

test("a kept-alive connection is closed with its 100th answer, and the client goes on over a new one", async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const answers: { status: number; connection?: string; socket: number }[] = [];
  const sockets = new Map<unknown, number>();
  for (let i = 0; i < 102; i++) {
    answers.push(
      await new Promise((resolve, reject) => {
        const req = http.get(`${base}/healthz`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket }));
        });
        let socket = -1;
        req.on("socket", (s) => {
          if (!sockets.has(s)) sockets.set(s, sockets.size);
          socket = sockets.get(s) ?? -1;
        });
        req.on("error", reject);
      }),
    );
  }
  agent.destroy();
  expect(answers.every((a) => a.status === 200)).toBe(true);
  expect(answers[98].connection).toBe("keep-alive");
  expect(answers[99].connection).toBe("close");
  expect(answers[100].connection).toBe("keep-alive");
  expect(answers.slice(0, 100).every((a) => a.socket === 0)).toBe(true);
  expect(answers.slice(100).every((a) => a.socket === 1)).toBe(true);
});
