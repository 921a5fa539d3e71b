import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Code and its comments cite what a clone contains: an ADR (docs/decisions/README.md is the
 * index), a guide in docs/ or a test. An issue number or a file beside the repository (the
 * product specification, the engineering notes) means nothing to someone who only has the
 * clone, so any tracked file that cites one fails here. Nothing is allowed, only this file,
 * whose samples below must name what it looks for.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const thisFile = path
  .relative(root, fileURLToPath(import.meta.url))
  .split(path.sep)
  .join("/");
const scanned = ["app", "server", "scripts", "tests", ".ci", "server.ts", "*.config.ts", ".dependency-cruiser.mjs"];

const outsideReferences: { name: string; pattern: RegExp }[] = [
  { name: "an issue number", pattern: /\bissues? #?[0-9]+/i },
  { name: "a path beside the repository", pattern: /\.\.\/shared\b/ },
  { name: "the specification's file", pattern: /\bSPEC\.md\b/ },
  { name: "the engineering notes' file", pattern: /\bENGINEERING\.md\b/ },
];

/** Each line of `text` that cites something a clone does not have, as "line: what". */
function findOutsideReferences(text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, i) =>
      outsideReferences.filter(({ pattern }) => pattern.test(line)).map(({ name }) => `${i + 1}: ${name}`),
    );
}

function trackedFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--", ...scanned], { cwd: root, encoding: "utf8" });
  return out.split("\0").filter((file) => file !== "" && file !== thisFile);
}

describe("references a clone can follow", () => {
  it("finds issue numbers and files outside the repository, and nothing else", () => {
    expect(findOutsideReferences("// The page cache (ADR 012; docs/caching.md).")).toEqual([]);
    expect(findOutsideReferences("it('keeps the spec\\'s exact texts (tests/e2e/api.spec.ts)')")).toEqual([]);
    expect(findOutsideReferences('"USJ-ENGINEERING-NEW"')).toEqual([]);
    expect(
      findOutsideReferences(
        [
          "// The page cache (issue 8, point 4).",
          "it('reads Within (Issue 12)')",
          "/** SPEC.md section 5: both fields needed. */",
          "// See ../shared/notes.md and ENGINEERING.md rule 6.",
        ].join("\n"),
      ),
    ).toEqual([
      "1: an issue number",
      "2: an issue number",
      "3: the specification's file",
      "4: a path beside the repository",
      "4: the engineering notes' file",
    ]);
  });

  it("are the only kind in app/, server/, scripts/, tests/, .ci/ and the configuration", () => {
    const files = trackedFiles();
    expect(files).toContain("server.ts");
    expect(files).toContain("app/routes.ts");
    const found = files.flatMap((file) => {
      const bytes = fs.readFileSync(path.join(root, file));
      if (bytes.includes(0)) return []; // images and other binary files cite nothing
      return findOutsideReferences(bytes.toString("utf8")).map((hit) => `${file}:${hit}`);
    });
    expect(found).toEqual([]);
  });
});
