/**
 * Names every failed test once more as the run's last lines. Vitest's own summary gives only counts, and
 * a failure's diff can run to hundreds of lines above it; CI shows the end of the log, so the names must
 * be there (stop 57's failure could not be read from it).
 */
import type { Reporter, TestModule } from "vitest/node";

/** The lines that name what failed: each failed test, or a file that failed outside its tests. */
export function failedTestLines(testModules: ReadonlyArray<TestModule>): string[] {
  const lines: string[] = [];
  for (const module of testModules) {
    const failed = [...module.children.allTests("failed")];
    for (const test of failed) lines.push(`  ${module.relativeModuleId} > ${test.fullName}`);
    if (failed.length === 0 && module.state() === "failed") {
      lines.push(`  ${module.relativeModuleId} (outside its tests: ${module.errors()[0]?.message ?? "no message"})`);
    }
  }
  return lines;
}

export default class FailedTestsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const lines = failedTestLines(testModules);
    if (lines.length > 0) console.log(`\nFailed (${lines.length}):\n${lines.join("\n")}`);
  }
}
