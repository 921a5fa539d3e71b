import { constants, crc32, deflateRawSync } from "node:zlib";

// gzip for a page one large part of which is the same on every page: the inline stylesheet,
// half of a listing page's bytes (ADR 128). That part is compressed once, at the best level,
// and each page compresses only what comes before and after it.
//
// A deflate stream is a run of blocks whose back-references reach at most 32 KB behind them.
// A compressor started afresh refers to nothing before its own start, so three streams read as
// one when the first two end on a byte boundary without a last block (a sync flush): the
// browser sees a single, ordinary gzip member (RFC 1951 3.2.3, RFC 1952 2.2).

/** A part compressed once: its bytes and their raw deflate (sync-flushed, no last block). */
export type CompressedPart = { raw: Buffer; deflated: Buffer };

/** ID1, ID2, deflate, no flags, no time, no extra flags, OS unknown (RFC 1952 2.3). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

export function compressPart(raw: Buffer): CompressedPart {
  return { raw, deflated: deflateRawSync(raw, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }) };
}

/** The gzip of `before`, the part and `after`, compressing only `before` and `after` at `level` (1–9). */
export function gzipAround(before: Buffer, part: CompressedPart, after: Buffer, level: number): Buffer {
  const trailer = Buffer.alloc(8);
  // The CRC of the whole, carried on from each piece to the next (9 µs for the stylesheet); the length
  // modulo 2^32. Read before compressing: Node's zlib leaves an empty buffer it compressed unreadable.
  trailer.writeUInt32LE(crc32(after, crc32(part.raw, crc32(before))) >>> 0, 0);
  trailer.writeUInt32LE((before.length + part.raw.length + after.length) % 2 ** 32, 4);
  const head = deflateRawSync(before, { level, finishFlush: constants.Z_SYNC_FLUSH });
  const tail = deflateRawSync(after, { level });
  return Buffer.concat([GZIP_HEADER, head, part.deflated, tail, trailer]);
}
