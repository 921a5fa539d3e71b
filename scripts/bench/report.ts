import type { BenchResults, BudgetCheck, PhaseName, StatusCounts } from "./results.ts";
import { LARGE_SCALE, ratios } from "./results.ts";

const PHASE_LABELS: Record<PhaseName, string> = {
  bare: "(a) bare node:http, same bytes",
  static: "(b) stylesheet from the app",
  warmUp: "    warm-up: each hot URL once",
  hot: "(c) hot mix",
  cold: "(d) cold mix",
};

const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

function statuses(codes: StatusCounts): string {
  return Object.entries(codes)
    .map(([status, n]) => `${status}: ${number.format(n)}`)
    .join(", ");
}

function row(cells: string[], widths: number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
}

/** The results as the table `npm run bench` prints. */
export function formatReport(results: BenchResults, budgets: BudgetCheck[], problems: string[]): string {
  const lines: string[] = [];
  const { stylesheet } = results;
  lines.push(
    `${number.format(results.listings)} public listings on ${results.database}, ${results.workers} worker${results.workers === 1 ? "" : "s"}${results.short ? " (short mode: proves the harness, measures nothing)" : ""}`,
    `Stylesheet ${stylesheet.path}: ${number.format(stylesheet.bytes)} bytes, ${stylesheet.encoding || "not compressed"}`,
    "",
  );

  const widths = [32, 5, 8, 7, 7, 9, 6];
  lines.push(
    row(["Phase", "conns", "req/s", "p50 ms", "p99 ms", "requests", "URLs"], widths) +
      "  status codes (errors); page cache",
  );
  for (const [name, phase] of Object.entries(results.phases) as [PhaseName, BenchResults["phases"][PhaseName]][]) {
    const cells = [
      PHASE_LABELS[name],
      String(phase.connections),
      number.format(phase.requestsPerSecond),
      phase.p50.toFixed(1),
      phase.p99.toFixed(1),
      number.format(phase.requests),
      phase.urls === undefined ? "" : number.format(phase.urls),
    ];
    const errors = phase.errors > 0 ? ` (${number.format(phase.errors)} errors)` : "";
    const cache =
      phase.pageCache && (phase.pageCache.HIT || phase.pageCache.MISS) ? `; ${statuses(phase.pageCache)}` : "";
    lines.push(
      `${row(cells, widths)}  ${statuses(phase.statusCodes)}${errors}${cache}${phase.note ? `; ${phase.note}` : ""}`,
    );
  }

  const r = ratios(results.phases);
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  lines.push(
    "",
    `Ratios: (b)/(a) ${percent(r.staticToBare)}   (c)/(b) ${percent(r.hotToStatic)}   (d)/(b) ${percent(r.coldToStatic)}`,
    "",
  );

  const requests = results.shapes[0]?.requests ?? 0;
  const nameWidth = Math.max(...results.shapes.map((s) => s.name.length), 5);
  const pathWidth = Math.max(...results.shapes.map((s) => s.path.length), 4);
  lines.push(`(e) Search shapes: 1 connection, ${requests} requests each, past the page cache`);
  lines.push(
    `${"Shape".padEnd(nameWidth)}  ${"Path".padEnd(pathWidth)}  ${"p50 ms".padStart(7)}  ${"p95 ms".padStart(7)}`,
  );
  for (const shape of results.shapes) {
    lines.push(
      `${shape.name.padEnd(nameWidth)}  ${shape.path.padEnd(pathWidth)}  ${shape.p50.toFixed(1).padStart(7)}  ${shape.p95.toFixed(1).padStart(7)}`,
    );
  }

  lines.push(
    "",
    `Budgets (docs/performance.md "Budgets"; for ${results.listings >= LARGE_SCALE ? "1,000,000" : "100,000"} listings)`,
  );
  for (const check of budgets)
    lines.push(`  ${check.pass ? "PASS" : "FAIL"}  ${check.budget.padEnd(40)} ${check.measured}`);

  if (problems.length > 0) {
    lines.push("", "The harness did not work:");
    for (const problem of problems) lines.push(`  - ${problem}`);
  }
  return lines.join("\n");
}
