import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

/**
 * An S3 protocol server for tests (s3rver, a devDependency): it stands in for
 * S3 or any S3-compatible object storage, keeping objects in a temporary folder.
 * `storageUrl` is what STORAGE_URL would be; `credentials` what the AWS_*
 * variables would be (s3rver accepts these fixed ones).
 */
export type TestS3 = {
  port: number;
  bucket: string;
  storageUrl: (prefix?: string) => string;
  env: Record<string, string>;
  close: () => Promise<void>;
};

type S3rverInstance = { run(): Promise<{ port: number }>; close(): Promise<void> };
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export async function startTestS3(bucket = "bodima-photos"): Promise<TestS3> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    port,
    bucket,
    storageUrl: (prefix = "") =>
      `s3://${bucket}${prefix ? `/${prefix}` : ""}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1`,
    env: { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
