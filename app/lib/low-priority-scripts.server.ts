import { Transform } from "node:stream";

const PRELOAD = Buffer.from('<link rel="modulepreload"');
const LOW = Buffer.from(' fetchpriority="low"');

/**
 * Marks React Router's `<link rel="modulepreload">` tags `fetchpriority="low"`
 * as the HTML streams by (ADR 032): every page works before its scripts run, so
 * the HTML, the photos and the first paint go first on a slow connection.
 * `<Scripts>` has no prop for it. Works on bytes, so a chunk boundary inside
 * the tag or inside a Sinhala or Tamil character changes nothing.
 */
export function lowPriorityScripts(): Transform {
  let carry: Buffer = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      const parts: Buffer[] = [];
      let from = 0;
      for (let at = data.indexOf(PRELOAD); at !== -1; at = data.indexOf(PRELOAD, from)) {
        parts.push(data.subarray(from, at + PRELOAD.length), LOW);
        from = at + PRELOAD.length;
      }
      // Hold back an end that may be the start of a tag cut by the chunk boundary.
      let keep = Math.min(PRELOAD.length - 1, data.length - from);
      while (keep > 0 && !data.subarray(data.length - keep).equals(PRELOAD.subarray(0, keep))) keep -= 1;
      parts.push(data.subarray(from, data.length - keep));
      carry = Buffer.from(data.subarray(data.length - keep));
      callback(null, Buffer.concat(parts));
    },
    flush(callback) {
      callback(null, carry);
    },
  });
}
