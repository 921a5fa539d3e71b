import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkFile, documentationFiles, extractLinks, headingAnchors, headingSlug } from "./doc-links.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("the README and docs/", () => {
  it("have no broken relative link, no link outside the repository and no missing heading", () => {
    const files = documentationFiles(root);
    expect(files).toContain("README.md");
    expect(files).toContain(path.join("docs", "architecture.md"));
    const broken = files.flatMap((file) => checkFile(root, file));
    expect(broken.map((b) => `${b.file}:${b.line}: ${b.target} (${b.problem})`)).toEqual([]);
  });
});

describe("the link checker", () => {
  const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "doc-links-"));
  afterAll(() => fs.rmSync(sandbox, { recursive: true, force: true }));
  fs.mkdirSync(path.join(sandbox, "docs", "decisions"), { recursive: true });
  fs.writeFileSync(
    path.join(sandbox, "docs", "guide.md"),
    "# Guide\n\n## Running at scale (nginx)\n\n## Notes\n## Notes\n",
  );
  fs.writeFileSync(path.join(sandbox, "docs", "decisions", "001-one.md"), "# One\n");

  function brokenIn(markdown: string): string[] {
    fs.writeFileSync(path.join(sandbox, "README.md"), markdown);
    return checkFile(sandbox, "README.md").map((b) => `${b.line}: ${b.target} (${b.problem})`);
  }

  it("accepts files, folders, headings and outside addresses that exist", () => {
    expect(
      brokenIn(
        [
          "[guide](docs/guide.md) and [scale](docs/guide.md#running-at-scale-nginx)",
          "[notes](docs/guide.md#notes-1), [decisions](docs/decisions/), ![shot](docs/guide.md)",
          "[web](https://example.com/x.md) [mail](mailto:a@b.lk) [self](#top)",
          "",
          "# Top",
          "[ref]: docs/decisions/001-one.md",
        ].join("\n"),
      ),
    ).toEqual([]);
  });

  it("reports a missing file, a missing heading and a path out of the clone, each with its line", () => {
    expect(
      brokenIn(
        [
          "See [the guide](docs/gide.md).",
          "And [scale](docs/guide.md#running-at-scale).",
          "Rules in [house rules](../elsewhere/RULES.md).",
          "[ref]: docs/missing.md",
          "[here](#nowhere)",
        ].join("\n"),
      ),
    ).toEqual([
      "1: docs/gide.md (no such file)",
      "2: docs/guide.md#running-at-scale (no heading #running-at-scale)",
      "3: ../elsewhere/RULES.md (points outside the repository)",
      "4: docs/missing.md (no such file)",
      "5: #nowhere (no heading #nowhere)",
    ]);
  });

  it("skips links inside code", () => {
    expect(extractLinks("`[a](nowhere.md)`\n\n```md\n[b](gone.md)\n```\n[c](real.md)")).toEqual([
      { line: 6, target: "real.md" },
    ]);
  });

  it("makes anchors as GitHub does", () => {
    expect(headingSlug("Throughput (`npm run bench`)")).toBe("throughput-npm-run-bench");
    expect(headingSlug("The budgets' measured column, as of 2026-11-28")).toBe(
      "the-budgets-measured-column-as-of-2026-11-28",
    );
    expect(headingSlug("Sinhala (සිංහල)")).toBe("sinhala-සිංහල");
    expect([...headingAnchors("# A\n\n```\n# not a heading\n```\n## A\n")]).toEqual(["a", "a-1"]);
  });
});
