import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalPhotoStorage } from "./storage.server";

describe("local photo storage", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-storage-"));
  const storage = createLocalPhotoStorage(root);

  it("stores, reads and removes a file", async () => {
    await storage.put("abc-400.webp", Buffer.from("x"));
    expect((await storage.get("abc-400.webp"))?.toString()).toBe("x");
    await storage.remove("abc-400.webp");
    expect(await storage.get("abc-400.webp")).toBeNull();
  });

  it("never reads or writes outside its folder", async () => {
    expect(await storage.get("../secrets.json")).toBeNull();
    expect(await storage.get("/etc/passwd")).toBeNull();
    await expect(storage.put("../escape.webp", Buffer.from("x"))).rejects.toThrow(/Unsafe storage key/);
  });
});
