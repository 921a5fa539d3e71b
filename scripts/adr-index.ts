// Keeps docs/decisions/README.md (the index of ADRs) in step with the records themselves: every
// numbered record listed once, nothing listed that is not there, and every record carrying the
// Status line docs/decisions/TEMPLATE.md asks for. scripts/adr-index.test.ts runs it in `npm test`.
import fs from "node:fs";
import path from "node:path";

/** A record's file name: three digits, a hyphen, a slug (`012-anonymous-page-cache.md`). */
const RECORD = /^\d{3}-[a-z0-9-]+\.md$/;

/** The numbered records in `docs/decisions/` of the repository at `root` (the template is not one). */
export function decisionRecords(root: string): string[] {
  return fs
    .readdirSync(path.join(root, "docs", "decisions"))
    .filter((name) => RECORD.test(name))
    .sort();
}

/**
 * The records the index lists, in its order: the first link to a record on each line (a row's
 * title). Later links on the line (the records that changed it) are checked by scripts/doc-links.ts.
 */
export function indexedRecords(indexMarkdown: string): string[] {
  return indexMarkdown.split("\n").flatMap((line) => {
    const match = /\]\(\.?\/?(\d{3}-[a-z0-9-]+\.md)\)/.exec(line);
    return match ? [match[1]] : [];
  });
}

/** Whether a record says where it stands: a `Status:` line near its top, as the template has. */
export function hasStatusLine(recordMarkdown: string): boolean {
  return recordMarkdown
    .split("\n")
    .slice(0, 8)
    .some((line) => /(^|·\s*)Status: \S/.test(line));
}

/** What is wrong between the records and the index, one sentence per problem. */
export function indexProblems(root: string): string[] {
  const decisions = path.join(root, "docs", "decisions");
  const records = decisionRecords(root);
  const indexPath = path.join(decisions, "README.md");
  if (!fs.existsSync(indexPath)) return ["docs/decisions/README.md (the index) is missing"];
  const listed = indexedRecords(fs.readFileSync(indexPath, "utf8"));
  const problems: string[] = [];
  for (const record of records) {
    if (!listed.includes(record)) problems.push(`${record} is not in the index`);
    if (!hasStatusLine(fs.readFileSync(path.join(decisions, record), "utf8"))) {
      problems.push(`${record} has no Status line`);
    }
  }
  for (const [i, record] of listed.entries()) {
    if (!records.includes(record)) problems.push(`the index lists ${record}, which does not exist`);
    else if (listed.indexOf(record) !== i) problems.push(`the index lists ${record} twice`);
  }
  return problems;
}
