import { describe, expect, it } from "vitest";
import { acceptsMultipart, MAX_PHOTO_UPLOAD_BYTES, MAX_VIEW_COUNT_BYTES, readBody } from "./body-limit.server";

function post(body: BodyInit | null, headers: Record<string, string> = {}) {
  return new Request("http://localhost/x", { method: "POST", headers, body });
}

/** A body that never says how long it is, as a chunked upload. */
function streamed(chunks: number, size: number) {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ === chunks) controller.close();
      else controller.enqueue(new Uint8Array(size));
    },
  });
  return new Request("http://localhost/x", {
    method: "POST",
    headers: { "content-type": "multipart/form-data; boundary=x" },
    body,
    duplex: "half",
  } as RequestInit);
}

describe("readBody", () => {
  it("reads the kinds asked for, by Content-Type", async () => {
    const form = await readBody(post("a=1&b=%C3%A9", { "content-type": "application/x-www-form-urlencoded" }), {
      maxBytes: 100,
      kinds: ["urlencoded"],
    });
    expect(form.ok && [form.body.get("a"), form.body.get("b")]).toEqual(["1", "é"]);
    const multipart = new FormData();
    multipart.append("photo", new File([new Uint8Array(10)], "a.jpg", { type: "image/jpeg" }));
    const files = await readBody(new Request("http://localhost/x", { method: "POST", body: multipart }), {
      maxBytes: 1000,
      kinds: ["multipart"],
    });
    expect(files.ok && (files.body.get("photo") as File).size).toBe(10);
    // A form the reader does not take, or no type at all, is unreadable.
    expect(
      await readBody(post("a=1", { "content-type": "application/x-www-form-urlencoded" }), {
        maxBytes: 100,
        kinds: ["multipart"],
      }),
    ).toEqual({ ok: false, problem: "unreadable" });
    expect(await readBody(post("a=1"), { maxBytes: 100, kinds: ["urlencoded"] })).toEqual({
      ok: false,
      problem: "unreadable",
    });
  });

  it("parses JSON whatever the type says, and refuses what is not JSON", async () => {
    expect(await readBody(post('{"adId":7}'), { maxBytes: MAX_VIEW_COUNT_BYTES, kinds: ["json"] })).toEqual({
      ok: true,
      body: { adId: 7 },
    });
    expect(await readBody(post("adId=7"), { maxBytes: MAX_VIEW_COUNT_BYTES, kinds: ["json"] })).toEqual({
      ok: false,
      problem: "unreadable",
    });
  });

  it("refuses a body over the cap, declared or streamed, without buffering it whole", async () => {
    const declared = post("a=1", {
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(MAX_PHOTO_UPLOAD_BYTES + 1),
    });
    expect(await readBody(declared, { maxBytes: MAX_PHOTO_UPLOAD_BYTES, kinds: ["urlencoded"] })).toEqual({
      ok: false,
      problem: "tooLarge",
    });
    expect(await readBody(streamed(10, 1024), { maxBytes: 4 * 1024, kinds: ["multipart"] })).toEqual({
      ok: false,
      problem: "tooLarge",
    });
    expect(
      await readBody(post("x".repeat(MAX_VIEW_COUNT_BYTES + 1)), { maxBytes: MAX_VIEW_COUNT_BYTES, kinds: ["json"] }),
    ).toEqual({
      ok: false,
      problem: "tooLarge",
    });
  });

  it("reads a missing body as an empty one", async () => {
    const empty = await readBody(post(null, { "content-type": "application/x-www-form-urlencoded" }), {
      maxBytes: 100,
      kinds: ["urlencoded"],
    });
    expect(empty.ok && [...empty.body.keys()]).toEqual([]);
    expect(await readBody(post(null), { maxBytes: 100, kinds: ["json"] })).toEqual({
      ok: false,
      problem: "unreadable",
    });
  });
});

describe("where files may be sent", () => {
  it("takes a multipart body on the listing form and the photo upload in every language, nowhere else", () => {
    for (const prefix of ["", "/si", "/ta"]) {
      expect(acceptsMultipart(`${prefix}/dashboard/listings/new`)).toBe(true);
      expect(acceptsMultipart(`${prefix}/dashboard/listings/12/edit.data`)).toBe(true);
      expect(acceptsMultipart(`${prefix}/dashboard/photos`)).toBe(true);
      expect(acceptsMultipart(`${prefix}/login`)).toBe(false);
      expect(acceptsMultipart(`${prefix}/contact`)).toBe(false);
    }
    expect(acceptsMultipart("/xx/dashboard/photos")).toBe(false);
  });
});
