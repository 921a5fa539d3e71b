import { describe, expect, it } from "vitest";
import type { CachedPage } from "../app/cache/page-cache.server";
import { frameReader, MAX_FRAME_BYTES, pageFrame } from "./page-frames";

// ADR 122: the bytes of a page one worker hands another over their own socket.

function entry(key: string, body = "compressed"): CachedPage {
  return {
    key,
    kind: "listing",
    listingId: 7,
    headers: [
      ["content-type", "text/html"],
      ["content-security-policy", "script-src 'sha256-x'"],
    ],
    etag: 'W/"x"',
    modifiedAt: 1_796_000_000_000,
    variants: { br: Buffer.from(body), gzip: Buffer.from(`${body}-gzip`) },
    draft: true,
    expiresAt: 1_796_000_060_000,
    bytes: 30,
  };
}

function readAll(chunks: Buffer[]): [CachedPage, number][] {
  const pages: [CachedPage, number][] = [];
  const read = frameReader((page, seen) => pages.push([page, seen]));
  for (const chunk of chunks) read(chunk);
  return pages;
}

describe("page frames between the workers of a machine", () => {
  it("carries a page whole: its fields, every body as a Buffer, and the invalidation its render had read", () => {
    const pages = readAll([pageFrame(entry("/listing/a", "බෝඩිම"), 12)]);
    expect(pages).toEqual([[entry("/listing/a", "බෝඩිම"), 12]]);
    expect(Buffer.isBuffer(pages[0][0].variants.br)).toBe(true);
  });

  it("leaves the sender's own bookkeeping behind", () => {
    const [[page]] = readAll([pageFrame({ ...entry("/about"), movedAt: 41 }, 1)]);
    expect(page.movedAt).toBeUndefined();
  });

  it("reads pages cut anywhere and pages sent together in one chunk", () => {
    const frames = Buffer.concat([pageFrame(entry("/a"), 1), pageFrame(entry("/b", "x".repeat(5_000)), 2)]);
    const byteByByte = [...frames].map((byte) => Buffer.from([byte]));
    const expected = [
      [entry("/a"), 1],
      [entry("/b", "x".repeat(5_000)), 2],
    ];
    expect(readAll(byteByByte)).toEqual(expected);
    expect(readAll([frames])).toEqual(expected);
    expect(readAll([frames.subarray(0, 3), frames.subarray(3, 900), frames.subarray(900)])).toEqual(expected);
  });

  it("copies each body out of the chunk it came in, so a kept page does not hold its neighbours' bytes", () => {
    const body = "x".repeat(20_000);
    const frames = Buffer.concat([pageFrame(entry("/a", body), 1), pageFrame(entry("/b", body), 2)]);
    const [[a]] = readAll([frames]);
    expect(a.variants.br?.buffer).not.toBe(frames.buffer);
    expect(a.variants.br?.buffer.byteLength).toBe(body.length);
  });

  it("refuses a frame no worker would write, so the connection can be dropped", () => {
    const tooLong = Buffer.alloc(8);
    tooLong.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
    expect(() => readAll([tooLong])).toThrow(/page frame/);
    const frame = pageFrame(entry("/a"), 1);
    // The header says more body bytes than the frame holds.
    frame.writeUInt32BE(frame.readUInt32BE(0) - 2, 0);
    expect(() => readAll([frame])).toThrow(/add up/);
  });
});
