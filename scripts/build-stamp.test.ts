import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { BUILD_STAMP, buildIsCurrent, markBuildComplete } from "./build-stamp.ts";

let root: string;
let buildDir: string;
const inputs = ["app", "server.ts", "missing.ts"];
const at = (file: string, seconds: number) => fs.utimesSync(file, seconds, seconds);

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-stamp-"));
  buildDir = path.join(root, "build");
  fs.mkdirSync(path.join(root, "app", "routes"), { recursive: true });
  fs.mkdirSync(buildDir);
  fs.writeFileSync(path.join(root, "app", "routes", "home.tsx"), "x");
  fs.writeFileSync(path.join(root, "server.ts"), "x");
  at(path.join(root, "app", "routes", "home.tsx"), 1_000);
  at(path.join(root, "server.ts"), 1_000);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it("uses a build that finished after the last change to what it is made from", () => {
  markBuildComplete(buildDir);
  at(path.join(buildDir, BUILD_STAMP), 2_000);
  expect(buildIsCurrent(root, buildDir, inputs)).toBe(true);
});

it("builds again when any file under an input folder changed after the build, or the build never finished", () => {
  expect(buildIsCurrent(root, buildDir, inputs)).toBe(false);
  markBuildComplete(buildDir);
  at(path.join(buildDir, BUILD_STAMP), 2_000);
  at(path.join(root, "app", "routes", "home.tsx"), 3_000);
  expect(buildIsCurrent(root, buildDir, inputs)).toBe(false);
});
