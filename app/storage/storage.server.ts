import fs from "node:fs/promises";
import path from "node:path";

/**
 * Where photo files live. Local disk now; an S3-compatible driver can
 * implement the same interface for several servers.
 */
export type PhotoStorage = {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
  /** Every stored key with when it was last written (the orphan sweep, app/models/photo-sweep.server.ts). */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
};

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,200}$/;

export function createLocalPhotoStorage(root: string): PhotoStorage {
  const resolve = (key: string) => {
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, data) {
      await fs.mkdir(root, { recursive: true });
      await fs.writeFile(resolve(key), data);
    },
    async get(key) {
      if (!SAFE_KEY.test(key)) return null;
      try {
        return await fs.readFile(path.join(root, key));
      } catch {
        return null;
      }
    },
    async remove(key) {
      await fs.rm(resolve(key), { force: true });
    },
    async *list() {
      let dir: Awaited<ReturnType<typeof fs.opendir>>;
      try {
        dir = await fs.opendir(root);
      } catch {
        return; // nothing stored yet
      }
      for await (const entry of dir) {
        if (!entry.isFile() || !SAFE_KEY.test(entry.name)) continue;
        const stat = await fs.stat(path.join(root, entry.name)).catch(() => null);
        if (stat) yield { key: entry.name, modifiedAt: stat.mtime };
      }
    },
  };
}
