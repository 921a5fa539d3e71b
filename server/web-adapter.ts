import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

/**
 * Express request to fetch Request and back, as @react-router/express does,
 * but in our hands: the page cache needs the rendered Response before anything
 * is written, and renders the normalised URL rather than the one asked for.
 */
export function toFetchRequest(req: ExpressRequest, res: ExpressResponse, pathAndQuery: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  let controller: AbortController | null = new AbortController();
  const signal = controller.signal;
  res.on("finish", () => {
    controller = null;
  });
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  // The origin comes from the Host header, which the client writes: React Router compares it with an
  // action's Origin, and nothing of ours builds a URL from it (ADR 062). The path is appended, not
  // resolved: resolved, "//evil.example/language/en" would make evil.example the request's host.
  const origin = `${req.protocol}://${req.get("host") || "localhost"}`;
  return new Request(pathAndQuery.startsWith("/") ? `${origin}${pathAndQuery}` : new URL(pathAndQuery, origin), init);
}

export async function sendFetchResponse(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
