import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { type RequestInfo, requestContext } from "~/services.server";
import type { PhotoStorage } from "~/storage/storage.server";
import { loader } from "./photos.$key";

const KEY = "0b8e2a4c-1d2e-4f3a-9b8c-7d6e5f4a3b2c-800.webp";
const files = new Map([[KEY, Buffer.from("RIFF....WEBPVP8 fake")]]);
const storage: PhotoStorage = {
  async get(key) {
    if (key === "explode-800.webp") throw new Error("should never be asked for");
    return files.get(key) ?? null;
  },
  async put() {},
  async remove() {},
  async *list() {},
};

// The photo row says whose listing it is (app/models/photo.server.ts photoVisibility): here a public one.
const db = {
  selectFrom: () => ({
    leftJoin: () => ({
      select: () => ({
        where: (_column: string, _op: string, id: string) => ({
          executeTakeFirst: async () =>
            KEY.startsWith(id) ? { userId: "u1", listingId: 1, status: "active" } : undefined,
        }),
      }),
    }),
  }),
};

function load(key: string, headers: HeadersInit = {}) {
  const context = new RouterContextProvider();
  context.set(requestContext, { storage, db } as unknown as RequestInfo);
  const request = new Request(`http://localhost/photos/${encodeURIComponent(key)}`, { headers });
  return loader({ params: { key }, request, context } as never);
}

describe("GET /photos/:key", () => {
  // Not for a year any more (ADR 020): a hidden listing's photos must stop being served.
  it("serves a stored variant of a public listing as WebP, cached for ten minutes", async () => {
    const response = await load(KEY);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/webp");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=600");
    expect(response.headers.get("ETag")).toMatch(/^"[\w-]{27}"$/);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(files.get(KEY));
  });

  it("answers 304 when the browser already has it", async () => {
    const etag = (await load(KEY)).headers.get("ETag")!;
    const response = await load(KEY, { "If-None-Match": etag });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe("");
  });

  it.each([
    "1b8e2a4c-1d2e-4f3a-9b8c-7d6e5f4a3b2c-800.webp",
    "explode-800.webp",
    "../secrets.json",
    "..%2F..%2Fetc%2Fpasswd",
    `${KEY}.png`,
    KEY.replace(".webp", ".jpg"),
    KEY.replace("-800", "-8"),
    "",
    "a".repeat(5000),
  ])("answers a plain 404 for %j", async (key) => {
    const response = await load(key);
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("Photo not found");
  });
});
