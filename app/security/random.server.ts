import { randomBytes } from "node:crypto";

/**
 * Random bytes from the operating system's CSPRNG, drawn 4 KB at a time and
 * handed out once each: one system call per 256 ids instead of one per id.
 * A cached page served to a new visitor needs two ids (its visitor and view
 * cookies), and asking the kernel for 16 bytes at a time cost about 4% of the
 * CPU of serving cached pages in the benchmark (docs/performance.md).
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

export function randomChunk(size: number): Buffer {
  if (size > POOL_BYTES) return randomBytes(size);
  if (used + size > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  const chunk = pool.subarray(used, used + size);
  used += size;
  return chunk;
}
