// Runs after `react-router build` (npm run build): writes brotli (.br) and
// gzip (.gz) copies of every compressible file of the browser build, at the
// highest levels, so the server never compresses a static file per request
// (server/static-files.ts serves them from memory).
import fs from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { markBuildComplete } from "./build-stamp.ts";

const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|html|webmanifest|map|ico)$/;
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const clientDir = path.join(buildDir, "client");

let files = 0;
let saved = 0;
for (const entry of fs.readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const raw = fs.readFileSync(file);
  if (raw.length < 1024) continue;
  const br = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  const gz = gzipSync(raw, { level: 9 });
  if (br.length < raw.length) fs.writeFileSync(`${file}.br`, br);
  if (gz.length < raw.length) fs.writeFileSync(`${file}.gz`, gz);
  files += 1;
  saved += raw.length - br.length;
}
console.log(`precompressed ${files} files (brotli saves ${(saved / 1024).toFixed(0)} KB)`);
// The last step of npm run build: the build is whole (scripts/build-stamp.ts).
markBuildComplete(buildDir);
