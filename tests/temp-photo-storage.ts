import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";
import { createLocalPhotoStorage, type PhotoStorage } from "../app/storage/storage.server";

/**
 * Photo storage in a folder of its own, removed when the test that asked for
 * it ends (pass or fail), so test runs leave nothing in the system's temp folder.
 */
export function tempPhotoStorage(): { storage: PhotoStorage; files: () => string[] } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-photos-"));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  return {
    storage: createLocalPhotoStorage(root),
    files: () => (fs.existsSync(root) ? fs.readdirSync(root).sort() : []),
  };
}
