import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { injectWorker, manifestFor, precacheList, workerTexts } from "./files.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const template = fs.readFileSync(path.join(root, "scripts", "pwa", "service-worker.js"), "utf8");

/** The worker's build values, as the browser reads them from the injected sw.js. */
function buildOf(source: string): { version: string; precache: string[]; texts: Record<string, { savedOn: string }> } {
  const json = /const BUILD = (\{.*\});\n/.exec(source)?.[1];
  return JSON.parse(json!);
}

describe("the service worker's build-time injection (ADR 088)", () => {
  const build = fs.mkdtempSync(path.join(os.tmpdir(), "pwa-build-"));
  afterAll(() => fs.rmSync(build, { recursive: true, force: true }));
  const write = (file: string) => {
    fs.mkdirSync(path.dirname(path.join(build, file)), { recursive: true });
    fs.writeFileSync(path.join(build, file), "x");
  };
  for (const file of [
    "client/assets/root-Ab12.js",
    "client/assets/root-Ab12.js.br",
    "client/assets/app-Cd34.css",
    "client/assets/app-Cd34.css.gz",
    "client/assets/common-Ef56.si.json",
    "client/assets/sub/font-Gh78.woff2",
    "client/favicon.svg",
    "server/index.js",
    "server/assets/server-build-Ij90.js",
  ])
    write(file);

  it("lists the browser build's hashed scripts, styles, fonts and messages, and nothing of the server", () => {
    const list = precacheList(path.join(build, "client"));
    expect(list).toEqual([
      "/assets/app-Cd34.css",
      "/assets/common-Ef56.si.json",
      "/assets/root-Ab12.js",
      "/assets/sub/font-Gh78.woff2",
    ]);
  });

  it("puts the list, the icons and the three languages' texts into the worker, under a version of its contents", () => {
    const list = precacheList(path.join(build, "client"));
    const source = injectWorker(template, list, workerTexts(root));
    const injected = buildOf(source);
    expect(injected.precache).toEqual([
      ...list,
      "/icons/icon-192.png",
      "/icons/icon-512.png",
      "/icons/maskable-512.png",
    ]);
    expect(injected.texts.si.savedOn).toContain("{date}");
    expect(Object.keys(injected.texts)).toEqual(["en", "si", "ta"]);
    expect(source).not.toContain("__BODIMA_BUILD__");
    // Another build's files: another version, so its caches replace these.
    const next = buildOf(injectWorker(template, ["/assets/root-Zz99.js"], workerTexts(root)));
    expect(next.version).not.toBe(injected.version);
  });

  it("refuses a worker source without its placeholder", () => {
    expect(() => injectWorker("const BUILD = {};", [], workerTexts(root))).toThrow(/exactly once/);
  });

  it("writes a manifest per language that opens the app in that language", () => {
    const ta = manifestFor(root, "ta");
    expect(ta).toMatchObject({ lang: "ta", dir: "ltr", start_url: "/ta/", scope: "/ta/", theme_color: "#0d5f54" });
    expect(ta.icons.map((icon) => icon.purpose)).toContain("maskable");
  });
});
