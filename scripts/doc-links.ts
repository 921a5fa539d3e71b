// Finds broken relative links in the README and docs/: a link to a file the
// clone does not have, to a place outside the repository, or to a heading a
// markdown file does not have. scripts/doc-links.test.ts runs it in `npm test`.
import fs from "node:fs";
import path from "node:path";

export type DocLink = { line: number; target: string };
export type BrokenLink = { file: string; line: number; target: string; problem: string };

/** Text with fenced code blocks and inline code blanked out (links there are examples, not links). */
function withoutCode(markdown: string): string {
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  return markdown
    .replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(\n {0,3}\2[^\n]*(?=\n|$)|$)/gm, blank)
    .replace(/(`+)[^`\n][\s\S]*?\1/g, blank);
}

/** Every inline link and image `[text](target)` and reference definition `[name]: target`, with its line. */
export function extractLinks(markdown: string): DocLink[] {
  const text = withoutCode(markdown);
  const links: DocLink[] = [];
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ line: lineOf(match.index), target: match[1] });
  }
  for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) {
    links.push({ line: lineOf(match.index), target: match[1] });
  }
  return links.sort((a, b) => a.line - b.line);
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

/** The anchors a markdown file's headings make, repeated ones numbered as GitHub does (`-1`, `-2`). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutCode(markdown).matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    // Headings are read from the text with code blanked, so take the heading from the original.
    const original = markdown.slice(match.index, match.index + match[0].length);
    const heading = original.replace(/^ {0,3}#{1,6}[ \t]+/, "").replace(/[ \t#]*$/, "");
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Whether a target leaves the clone for the web or another program (`https:`, `mailto:` …). */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");
}

/** The broken relative links of one markdown file of the repository at `root`. */
export function checkFile(root: string, file: string): BrokenLink[] {
  const absolute = path.resolve(root, file);
  const markdown = fs.readFileSync(absolute, "utf8");
  const broken: BrokenLink[] = [];
  for (const { line, target } of extractLinks(markdown)) {
    if (isExternal(target)) continue;
    const report = (problem: string) => broken.push({ file, line, target, problem });
    const [rawPath, anchor] = target.split("#", 2) as [string, string | undefined];
    const pathPart = decodeURIComponent(rawPath.split("?")[0]);
    const resolved = pathPart === "" ? absolute : path.resolve(path.dirname(absolute), pathPart);
    const relative = path.relative(path.resolve(root), resolved);
    if (relative.startsWith("..") || path.isAbsolute(relative)) {
      report("points outside the repository");
      continue;
    }
    if (!fs.existsSync(resolved)) {
      report("no such file");
      continue;
    }
    if (anchor && resolved.endsWith(".md") && fs.statSync(resolved).isFile()) {
      const anchors = headingAnchors(fs.readFileSync(resolved, "utf8"));
      if (!anchors.has(decodeURIComponent(anchor).toLowerCase())) report(`no heading #${anchor}`);
    }
  }
  return broken;
}

/** README.md and every markdown file under docs/, relative to `root`. */
export function documentationFiles(root: string): string[] {
  const files = fs.existsSync(path.join(root, "README.md")) ? ["README.md"] : [];
  const docs = path.join(root, "docs");
  if (fs.existsSync(docs)) {
    const entries = fs.readdirSync(docs, { recursive: true, encoding: "utf8" });
    for (const entry of entries.sort()) if (entry.endsWith(".md")) files.push(path.join("docs", entry));
  }
  return files;
}
