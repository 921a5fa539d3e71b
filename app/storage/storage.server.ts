import fs from "node:fs/promises";
import path from "node:path";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";

/**
 * Where photo files live: DATA_DIR/photos on the local disk, or an
 * S3-compatible bucket (STORAGE_URL) that several servers share (ADR 043).
 */
export type PhotoStorage = {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
  /** Every stored key with when it was last written (the orphan sweep, app/models/photo-sweep.server.ts). */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** Resolves when the storage can be reached (/readyz); a local folder needs no check. */
  check?: () => Promise<void>;
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

/** STORAGE_URL, read: `s3://bucket[/prefix]?endpoint=https://…&region=…`. */
export type S3Location = { bucket: string; prefix: string; endpoint?: string; region: string };

export function parseStorageUrl(url: string): S3Location {
  const parsed = new URL(url);
  if (parsed.protocol !== "s3:" || !parsed.hostname) {
    throw new Error("STORAGE_URL must look like s3://bucket?endpoint=https://…&region=… (or s3://bucket/prefix?…)");
  }
  const prefix = parsed.pathname.replace(/^\/+|\/+$/g, "");
  const endpoint = parsed.searchParams.get("endpoint") ?? undefined;
  if (endpoint && !/^https?:\/\/[^\s]+$/.test(endpoint))
    throw new Error("STORAGE_URL: endpoint must be an http(s) URL");
  return {
    bucket: parsed.hostname,
    prefix: prefix ? `${prefix}/` : "",
    endpoint,
    region: parsed.searchParams.get("region") ?? process.env.AWS_REGION ?? "us-east-1",
  };
}

/** A bucket as photo storage behind the same interface (ADR 043); credentials come from the standard AWS variables. */
export function createS3PhotoStorage(location: S3Location): PhotoStorage {
  const client = new S3Client({
    region: location.region,
    ...(location.endpoint ? { endpoint: location.endpoint, forcePathStyle: true } : {}),
    maxAttempts: 3,
  });
  const Bucket = location.bucket;
  const objectKey = (key: string) => {
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key: ${key}`);
    return location.prefix + key;
  };
  return {
    async put(key, data) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: objectKey(key), Body: data, ContentType: contentTypeOf(key) }),
      );
    },
    async get(key) {
      if (!SAFE_KEY.test(key)) return null;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: location.prefix + key }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
      } catch (error) {
        if ((error as { name?: string }).name === "NoSuchKey") return null;
        throw error;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: location.prefix || undefined, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(location.prefix.length) ?? "";
          if (SAFE_KEY.test(key) && object.LastModified) yield { key, modifiedAt: object.LastModified };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}

function contentTypeOf(key: string): string {
  if (key.endsWith(".webp")) return "image/webp";
  if (key.endsWith(".avif")) return "image/avif";
  if (key.endsWith(".jpg") || key.endsWith(".jpeg")) return "image/jpeg";
  if (key.endsWith(".png")) return "image/png";
  return "application/octet-stream";
}

/** The photo storage the configuration asks for: STORAGE_URL's bucket, else DATA_DIR/photos. */
export function photoStorageFor(env: { STORAGE_URL?: string; dataDir: string }): PhotoStorage {
  return env.STORAGE_URL
    ? createS3PhotoStorage(parseStorageUrl(env.STORAGE_URL))
    : createLocalPhotoStorage(path.join(env.dataDir, "photos"));
}
