// Runs after `react-router build` (npm run build), before scripts/precompress.ts: writes the
// installable app's files into build/client (ADR 088): sw.js (scripts/pwa/service-worker.js with this
// build's precache list and texts), manifest.{en,si,ta}.webmanifest and the icons, drawn with sharp
// from public/favicon.svg so that they never go stale beside it.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import {
  ICONS,
  injectWorker,
  manifestFor,
  manifestPath,
  PWA_LOCALES,
  precacheList,
  THEME_COLOR,
  workerTexts,
} from "./pwa/files.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const clientDir = path.resolve(process.env.BUILD_DIR ?? "build", "client");

const svg = fs.readFileSync(path.join(root, "public", "favicon.svg"));
fs.mkdirSync(path.join(clientDir, "icons"), { recursive: true });
for (const icon of ICONS) {
  const size = Number(icon.sizes.split("x")[0]);
  const file = path.join(clientDir, icon.src);
  if (icon.purpose === "maskable") {
    // A launcher may cut the icon to any shape inside the middle 80%: the mark sits in its middle 60%
    // on the brand colour, so nothing of it is cut.
    const mark = await sharp(svg, { density: 1200 })
      .resize(Math.round(size * 0.6))
      .png()
      .toBuffer();
    await sharp({ create: { width: size, height: size, channels: 4, background: THEME_COLOR } })
      .composite([{ input: mark, gravity: "center" }])
      .png()
      .toFile(file);
  } else {
    await sharp(svg, { density: 1200 }).resize(size).png().toFile(file);
  }
}

for (const locale of PWA_LOCALES)
  fs.writeFileSync(
    path.join(clientDir, manifestPath(locale)),
    `${JSON.stringify(manifestFor(root, locale), null, 2)}\n`,
  );

const template = fs.readFileSync(path.join(root, "scripts", "pwa", "service-worker.js"), "utf8");
const precache = precacheList(clientDir);
fs.writeFileSync(path.join(clientDir, "sw.js"), injectWorker(template, precache, workerTexts(root)));
console.log(
  `installable app: sw.js precaches ${precache.length + ICONS.length} files; ${PWA_LOCALES.length} manifests`,
);
