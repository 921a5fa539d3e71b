import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { decisionRecords, hasStatusLine, indexedRecords, indexProblems } from "./adr-index.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("docs/decisions/", () => {
  it("lists every record in its index, nothing else, and every record has a Status line", () => {
    expect(decisionRecords(root).length).toBeGreaterThanOrEqual(70);
    expect(indexProblems(root)).toEqual([]);
  });
});

describe("the index check", () => {
  const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "adr-index-"));
  afterAll(() => fs.rmSync(sandbox, { recursive: true, force: true }));
  const decisions = path.join(sandbox, "docs", "decisions");
  fs.mkdirSync(decisions, { recursive: true });
  const write = (name: string, text: string) => fs.writeFileSync(path.join(decisions, name), text);
  write("TEMPLATE.md", "# NNN: Title\n\nDate: YYYY-MM-DD · Status: proposed\n");
  write("001-one.md", "# 001: One\n\nDate: 2026-11-22 · Status: accepted\n");
  write("002-two.md", "# 002: Two\n\nDate: 2026-11-22 · Status: superseded by 003\n");

  it("accepts an index that lists each record once, whatever else a row links to", () => {
    write("README.md", "| [001](001-one.md) | accepted | [002](002-two.md) |\n| [002](./002-two.md) | superseded |\n");
    expect(indexProblems(sandbox)).toEqual([]);
  });

  it("reports a record left out, a listed file that does not exist and a record listed twice", () => {
    write("README.md", "[001](001-one.md) | [tpl](TEMPLATE.md)\n[again](001-one.md)\n[gone](009-gone.md)\n");
    expect(indexProblems(sandbox)).toEqual([
      "002-two.md is not in the index",
      "the index lists 001-one.md twice",
      "the index lists 009-gone.md, which does not exist",
    ]);
  });

  it("reports a record without a Status line, and a missing index", () => {
    write("003-three.md", "# 003: Three\n\n## Context\nNo status here.\n");
    write("README.md", "[1](001-one.md)\n[2](002-two.md)\n[3](003-three.md)\n");
    expect(indexProblems(sandbox)).toEqual(["003-three.md has no Status line"]);
    fs.rmSync(path.join(decisions, "README.md"));
    expect(indexProblems(sandbox)).toEqual(["docs/decisions/README.md (the index) is missing"]);
    fs.rmSync(path.join(decisions, "003-three.md"));
  });

  it("reads a Status line in either form the records use, and only near the top", () => {
    expect(hasStatusLine("# 1\n\nDate: 2026-11-22 · Status: accepted\n")).toBe(true);
    expect(hasStatusLine("# 1\n\nStatus: superseded by 041\n")).toBe(true);
    expect(hasStatusLine("# 1\n\nStatus:\n")).toBe(false);
    expect(hasStatusLine(`# 1\n${"\n".repeat(10)}Status: accepted\n`)).toBe(false);
    expect(indexedRecords("[a](001-a.md) [b](004-b.md)\n[b](../x/002-b.md)\n[c](https://x.lk/003-c.md)")).toEqual([
      "001-a.md",
    ]);
  });
});
