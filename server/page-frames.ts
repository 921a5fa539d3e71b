// The bytes of a page one worker hands another over their own socket (ADR 122):
// a frame per page. No imports but Node's and types, like page-sharing.ts.
import type { CachedPage } from "../app/cache/page-cache.server";

type Encoding = keyof CachedPage["variants"];

/** What a frame's header says besides the page's fields: the bodies' encodings and lengths, in order. */
type Header = { entry: Omit<CachedPage, "variants" | "movedAt">; seen: number; bodies: [Encoding, number][] };

/**
 * The most a frame may say it holds. A page is tens of KB, its largest variant (identity) a few
 * hundred: anything longer is not a page from a worker, and the connection is dropped.
 */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * One page and the newest invalidation its render had read (`seen`): the frame's length
 * (4 bytes), its header's length (4 bytes), the header (JSON) and then each body's bytes.
 * The cache's own bookkeeping (`movedAt`) stays behind.
 */
export function pageFrame(entry: CachedPage, seen: number): Buffer {
  const { variants, movedAt: _movedAt, ...fields } = entry;
  const bodies = Object.entries(variants).filter((pair): pair is [Encoding, Buffer] => pair[1] !== undefined);
  const header: Header = { entry: fields, seen, bodies: bodies.map(([encoding, body]) => [encoding, body.length]) };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const length = 4 + headerBytes.length + bodies.reduce((sum, [, body]) => sum + body.length, 0);
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32BE(length, 0);
  lengths.writeUInt32BE(headerBytes.length, 4);
  return Buffer.concat([lengths, headerBytes, ...bodies.map(([, body]) => body)], 4 + length);
}

/** A frame's page again, its bodies copied out (a chunk read from a socket may hold several pages). */
function readFrame(frame: Buffer): { entry: CachedPage; seen: number } {
  const headerLength = frame.readUInt32BE(0);
  const header = JSON.parse(frame.toString("utf8", 4, 4 + headerLength)) as Header;
  const variants: CachedPage["variants"] = {};
  let at = 4 + headerLength;
  for (const [encoding, length] of header.bodies) {
    variants[encoding] = Buffer.from(frame.subarray(at, at + length));
    at += length;
  }
  if (at !== frame.length) throw new Error("a page frame's bodies do not add up to its length");
  return { entry: { ...header.entry, variants }, seen: header.seen };
}

/**
 * Reads the frames of one connection, in whatever chunks they arrive, and hands each page to
 * `onPage`. Throws on a frame no worker would write (too long, or not adding up): the caller
 * drops the connection.
 */
export function frameReader(onPage: (entry: CachedPage, seen: number) => void): (chunk: Buffer) => void {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  // The bytes the next frame needs: its length first, then the whole frame (no joining before).
  let needed = 4;
  return (chunk) => {
    pending.push(chunk);
    pendingLength += chunk.length;
    if (pendingLength < needed) return;
    const buffer = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingLength);
    let at = 0;
    for (;;) {
      if (buffer.length - at < 4) {
        needed = 4;
        break;
      }
      const length = buffer.readUInt32BE(at);
      if (length < 4 || length > MAX_FRAME_BYTES) throw new Error(`a page frame of ${length} bytes`);
      if (buffer.length - at - 4 < length) {
        needed = 4 + length;
        break;
      }
      const { entry, seen } = readFrame(buffer.subarray(at + 4, at + 4 + length));
      at += 4 + length;
      onPage(entry, seen);
    }
    const rest = buffer.subarray(at);
    pending = rest.length > 0 ? [rest] : [];
    pendingLength = rest.length;
  };
}
