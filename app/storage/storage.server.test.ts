import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3, type TestS3 } from "../../tests/s3-server";
import { createLocalPhotoStorage, createS3PhotoStorage, parseStorageUrl } from "./storage.server";

describe("local photo storage", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-storage-"));
  const storage = createLocalPhotoStorage(root);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

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

// ADR 043: photos in S3-compatible object storage, behind the same interface.
// s3rver (started here) stands in for S3.
describe("photo storage in a bucket (STORAGE_URL)", () => {
  let s3: TestS3;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  beforeAll(async () => {
    s3 = await startTestS3();
    Object.assign(process.env, s3.env);
  });
  afterAll(async () => {
    await s3.close();
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  });

  it("reads STORAGE_URL: the bucket, a prefix, the endpoint and the region", () => {
    expect(parseStorageUrl("s3://photos?endpoint=https://s3.example.lk&region=ap-south-1")).toEqual({
      bucket: "photos",
      prefix: "",
      endpoint: "https://s3.example.lk",
      region: "ap-south-1",
    });
    expect(parseStorageUrl("s3://photos/bodima/live/?region=eu-west-1")).toMatchObject({ prefix: "bodima/live/" });
    expect(() => parseStorageUrl("https://photos")).toThrow(/STORAGE_URL must look like s3:\/\/bucket/);
    expect(() => parseStorageUrl("s3://photos?endpoint=ftp://x")).toThrow(/endpoint must be an http\(s\) URL/);
  });

  it("stores, reads, lists and removes photos under its prefix, and refuses unsafe keys", async () => {
    const storage = createS3PhotoStorage(parseStorageUrl(s3.storageUrl("site-a")));
    const other = createS3PhotoStorage(parseStorageUrl(s3.storageUrl("site-b")));
    await storage.check?.();
    await storage.put("abc-400.webp", Buffer.from("a photo"));
    await other.put("xyz-400.webp", Buffer.from("another site's photo"));
    expect((await storage.get("abc-400.webp"))?.toString()).toBe("a photo");
    expect(await storage.get("missing-400.webp")).toBeNull();
    expect(await storage.get("../site-b/xyz-400.webp")).toBeNull();
    await expect(storage.put("../escape.webp", Buffer.from("x"))).rejects.toThrow(/Unsafe storage key/);
    const listed = [];
    for await (const file of storage.list()) listed.push(file);
    expect(listed.map((f) => f.key)).toEqual(["abc-400.webp"]);
    expect(listed[0].modifiedAt).toBeInstanceOf(Date);
    await storage.remove("abc-400.webp");
    expect(await storage.get("abc-400.webp")).toBeNull();
    expect((await other.get("xyz-400.webp"))?.toString()).toBe("another site's photo");
  });

  it("says when the bucket cannot be reached (/readyz)", async () => {
    const missing = createS3PhotoStorage(parseStorageUrl(s3.storageUrl().replace(s3.bucket, "no-such-bucket")));
    await expect(missing.check?.()).rejects.toThrow();
  });
});
