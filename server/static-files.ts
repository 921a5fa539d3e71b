import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { type Encoding, etagMatches, etagOf, preferredEncoding } from "../app/cache/page-encoding.server";

/**
 * The browser build (scripts, styles, icons), read into memory at start-up
 * with the brotli and gzip copies `npm run build` made (scripts/precompress.ts),
 * and answered before Express with headers prepared once: no per-request
 * compression, file system access or middleware (ADR 015).
 */
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".woff2": "font/woff2",
};

/** Hashed file names under /assets/ never change; anything else may, within an hour. */
const IMMUTABLE = "public, max-age=31536000, immutable";
const SHORT = "public, max-age=3600";
/** The service worker is asked again on every check, so a new build replaces it at once (ADR 088). */
const ALWAYS_ASKED = new Set(["/sw.js"]);

function cacheControlOf(urlPath: string): string {
  if (ALWAYS_ASKED.has(urlPath)) return "no-cache";
  return urlPath.startsWith("/assets/") ? IMMUTABLE : SHORT;
}

type StaticFile = {
  etag: string;
  bodies: Partial<Record<Encoding, { body: Buffer; headers: Record<string, string | number> }>>;
};

export type StaticFiles = { serve(req: IncomingMessage, res: ServerResponse): boolean; count: number };

export function loadStaticFiles(clientDir: string, securityHeaders: Record<string, string>): StaticFiles {
  const files = new Map<string, StaticFile>();
  for (const entry of fs.readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || /\.(?:br|gz)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const urlPath = `/${path.relative(clientDir, file).split(path.sep).join("/")}`;
    const raw = fs.readFileSync(file);
    const etag = etagOf(raw);
    const common = {
      ...securityHeaders,
      "Content-Type": TYPES[path.extname(entry.name).toLowerCase()] ?? "application/octet-stream",
      "Cache-Control": cacheControlOf(urlPath),
      ETag: etag,
      Vary: "Accept-Encoding",
    };
    const bodies: StaticFile["bodies"] = {
      identity: { body: raw, headers: { ...common, "Content-Length": raw.length } },
    };
    for (const [encoding, suffix] of [
      ["br", ".br"],
      ["gzip", ".gz"],
    ] as const) {
      if (!fs.existsSync(file + suffix)) continue;
      const body = fs.readFileSync(file + suffix);
      bodies[encoding] = { body, headers: { ...common, "Content-Encoding": encoding, "Content-Length": body.length } };
    }
    files.set(urlPath, { etag, bodies });
  }

  return {
    count: files.size,
    serve(req, res) {
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const url = req.url ?? "/";
      const query = url.indexOf("?");
      const file = files.get(query === -1 ? url : url.slice(0, query));
      if (!file) return false;
      if (etagMatches(req.headers["if-none-match"], file.etag)) {
        const { "Content-Length": _length, "Content-Encoding": _encoding, ...headers } = file.bodies.identity!.headers;
        res.writeHead(304, headers);
        res.end();
        return true;
      }
      const encoding = preferredEncoding(req.headers["accept-encoding"]);
      const chosen = file.bodies[encoding] ?? file.bodies.identity!;
      res.writeHead(200, chosen.headers);
      res.end(req.method === "HEAD" ? undefined : chosen.body);
      return true;
    },
  };
}
