import { describe, expect, it } from "vitest";
import type { TestModule } from "vitest/node";
import { failedTestLines } from "./failed-tests-reporter";

/** A test module as the reporter reads it: its file, its state, its errors and its failed tests. */
function fakeModule(file: string, state: string, failed: string[], errors: string[] = []): TestModule {
  return {
    relativeModuleId: file,
    state: () => state,
    errors: () => errors.map((message) => ({ message })),
    children: {
      *allTests() {
        for (const fullName of failed) yield { fullName };
      },
    },
  } as unknown as TestModule;
}

describe("the failed tests' names at the end of the run", () => {
  it("names each failed test with its file, and a file that failed outside its tests", () => {
    const lines = failedTestLines([
      fakeModule("tests/a.test.ts", "passed", []),
      fakeModule("tests/b.test.ts", "failed", [
        "sitemap [sqlite] > lists every listing",
        "sitemap [postgres] > lists every listing",
      ]),
      fakeModule("tests/c.test.ts", "failed", [], ["Cannot find module './gone'"]),
    ]);
    expect(lines).toEqual([
      "  tests/b.test.ts > sitemap [sqlite] > lists every listing",
      "  tests/b.test.ts > sitemap [postgres] > lists every listing",
      "  tests/c.test.ts (outside its tests: Cannot find module './gone')",
    ]);
  });

  it("says nothing when everything passed", () => {
    expect(failedTestLines([fakeModule("tests/a.test.ts", "passed", [])])).toEqual([]);
  });
});
