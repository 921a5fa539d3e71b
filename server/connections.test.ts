import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { acceptInWorkers, closeConnectionsAfter } from "./connections";

// ADR 107: workers accept their own connections, and a kept-alive connection is closed now and
// then so that the next lands on whichever worker is free.

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server whose answers name the client port of their connection, written as the busy answers are (a header array). */
async function start(limit: number): Promise<number> {
  const listening = http.createServer(
    closeConnectionsAfter((req, res) => {
      const body = String(req.socket.remotePort);
      res.writeHead(200, ["Content-Type", "text/plain", "Content-Length", Buffer.byteLength(body)]);
      res.end(body);
    }, limit),
  );
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  return (listening.address() as AddressInfo).port;
}

function get(port: number, agent: http.Agent): Promise<{ status: number; connection: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: String(res.headers.connection), body }));
      })
      .on("error", reject);
  });
}

describe("closing a kept-alive connection after a number of requests", () => {
  it("closes each connection with its limit-th answer, and the client goes on over a new one", async () => {
    const port = await start(3);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await get(port, agent));
    agent.destroy();

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.connection)).toEqual([
      "keep-alive",
      "keep-alive",
      "close",
      "keep-alive",
      "keep-alive",
      "close",
      "keep-alive",
    ]);
    // Three connections, three requests on each of the first two.
    const ports = answers.map((a) => a.body);
    expect(new Set(ports.slice(0, 3)).size).toBe(1);
    expect(new Set(ports.slice(3, 6)).size).toBe(1);
    expect(new Set(ports).size).toBe(3);
  });

  it("answers no 5xx to requests a client sent ahead on the connection it closes", async () => {
    const port = await start(2);
    // Four requests written at once (pipelined): two are answered, then the connection closes and
    // the client sends the others again on a new one. Node's own limit would answer them 503.
    const socket = net.connect(port, "127.0.0.1");
    const request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n";
    socket.write(request.repeat(4));
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
    });
    await new Promise((resolve) => socket.on("close", resolve));

    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    expect(statuses).toEqual(["200", "200"]);
    expect(received).toMatch(/Connection: close/i);
  });
});

describe("who accepts new connections", () => {
  const cluster = () => ({ schedulingPolicy: 2, SCHED_NONE: 1 });

  it("is each worker, for itself, unless told otherwise", () => {
    const c = cluster();
    acceptInWorkers(c, {});
    expect(c.schedulingPolicy).toBe(c.SCHED_NONE);
  });

  it("is as NODE_CLUSTER_SCHED_POLICY says when it is set (to measure round robin)", () => {
    const c = cluster();
    acceptInWorkers(c, { NODE_CLUSTER_SCHED_POLICY: "rr" });
    expect(c.schedulingPolicy).toBe(2);
  });
});
