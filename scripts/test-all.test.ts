import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { chooseTiers, formatDuration, lastLines, runTiers, type Tier, tiers } from "./test-all";

const node = (code: string) => [process.execPath, "-e", code];

/** A clock that moves on by `step` ms each time it is read. */
function clock(step: number) {
  let t = 0;
  return () => (t += step);
}

describe("npm test (scripts/test-all.ts)", () => {
  it("is the package's test command and runs every tier in order, the system tier after the build", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
    expect(pkg.scripts.test).toContain("scripts/test-all.ts");
    expect(tiers.map((t) => t.name)).toEqual(["static", "unit", "build", "browser", "system", "bench"]);
    const commands = tiers.flatMap((t) => t.commands.map((c) => c.join(" ")));
    expect(commands).toEqual([
      "npm run typecheck",
      "npm run lint",
      "npm run test:unit",
      "npm run build",
      "npm run test:e2e",
      "npm run test:system",
      "npm run bench -- --short",
    ]);
  });

  it("prints a header for each tier and the time each took, then a summary", async () => {
    const lines: string[] = [];
    const ran: string[] = [];
    const chosen: Tier[] = [
      { name: "first", what: "one", commands: [["a"], ["b"]] },
      { name: "second", what: "two", commands: [["c"]], env: { ROUNDS: "3" } },
    ];
    const code = await runTiers(chosen, {
      run: async (command, env) => {
        ran.push(`${command[0]}${env.ROUNDS ?? ""}`);
        return 0;
      },
      log: (line) => lines.push(line),
      now: clock(1500),
    });
    expect(code).toBe(0);
    expect(ran).toEqual(["a", "b", "c3"]);
    const text = lines.join("\n");
    expect(text).toContain("━━ Tier 1/2: first, one (a && b)");
    expect(text).toContain("━━ Tier 2/2: second, two (c)");
    expect(text).toContain("━━ Tier first passed in 1.5 s");
    expect(lines.slice(-4)).toEqual([
      "\n━━ Every tier passed",
      "   first   1.5 s",
      "   second  1.5 s",
      "   total   7.5 s",
    ]);
  });

  it("stops at the first failing tier, names it and exits with that command's code", async () => {
    const lines: string[] = [];
    const chosen: Tier[] = [
      { name: "static", what: "ok", commands: [node("process.exit(0)")] },
      { name: "browser", what: "fails", commands: [node("process.exit(3)"), node("console.log('not reached')")] },
      { name: "system", what: "never", commands: [node("process.exit(0)")] },
    ];
    const code = await runTiers(chosen, { log: (line) => lines.push(line) });
    expect(code).toBe(3);
    const last = lines.at(-1)!;
    expect(last).toMatch(/^\n━━ FAILED: tier browser \(.* -e process\.exit\(3\) exited with 3\) after /);
    expect(last).toContain("Passed before it: static. Not run: system.");
    expect(lines.join("\n")).not.toContain("Tier 3/3");
  });

  it("when the browser tier fails, runs its failed tests once more with full traces, and still fails", async () => {
    const browser = tiers.find((t) => t.name === "browser")!;
    expect(browser.onFailure?.command.join(" ")).toBe(
      "npx playwright test --last-failed --last-failed-file=test-results/browser/.last-run.json" +
        " --output=test-results/browser-retraced",
    );
    expect(browser.onFailure?.env).toEqual({ BROWSER_TRACES: "full" });
    const lines: string[] = [];
    const ran: string[] = [];
    const run = async (command: string[], env: NodeJS.ProcessEnv) => {
      ran.push(command.slice(0, 3).join(" ") + (env.BROWSER_TRACES ? ` (${env.BROWSER_TRACES})` : ""));
      // The rerun passes (a failure that does not repeat): the tier has failed all the same.
      return command.includes("--last-failed") ? 0 : 1;
    };
    const code = await runTiers([browser, { name: "system", what: "s", commands: [["system"]] }], {
      run,
      log: (line) => lines.push(line),
      now: clock(1000),
    });
    expect(code).toBe(1);
    expect(ran).toEqual(["npm run test:e2e", "npx playwright test (full)"]);
    expect(lines.join("\n")).toContain(
      "━━ Tier browser failed; running the failed browser tests once more, recording full traces (npx playwright test --last-failed",
    );
    expect(lines.at(-1)).toMatch(/^\n━━ FAILED: tier browser \(npm run test:e2e exited with 1\) after 1\.0 s\./);

    // A passing tier runs nothing more.
    ran.length = 0;
    const passing = async (command: string[]) => {
      ran.push(command[0]);
      return 0;
    };
    expect(await runTiers([browser], { run: passing, log: () => {} })).toBe(0);
    expect(ran).toEqual(["npm"]);
  });

  it("runs the static tier and the build beside the unit tier, their output held and shown under their headers after it", async () => {
    expect(tiers.filter((t) => t.beside).map((t) => `${t.name} beside ${t.beside}`)).toEqual([
      "static beside unit",
      "build beside unit",
    ]);
    const lines: string[] = [];
    const events: string[] = [];
    const chosen: Tier[] = [
      { name: "static", what: "s", commands: [["typecheck"], ["lint"]], beside: "unit" },
      { name: "unit", what: "u", commands: [["vitest"]] },
      { name: "build", what: "b", commands: [["build"]], beside: "unit" },
      { name: "browser", what: "e", commands: [["playwright"]] },
    ];
    const code = await runTiers(chosen, {
      run: async (command, _env, hold) => {
        events.push(`start ${command[0]}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        hold?.(`output of ${command[0]}\n`);
        events.push(`end ${command[0]}`);
        return 0;
      },
      log: (line) => lines.push(line),
      now: clock(1000),
    });
    expect(code).toBe(0);
    // All three start before the first ends; the browser tier only after all three.
    expect(events.slice(0, 3).sort()).toEqual(["start build", "start typecheck", "start vitest"]);
    expect(events.indexOf("start playwright")).toBeGreaterThan(events.lastIndexOf("end build"));
    const text = lines.join("\n");
    expect(text).not.toContain("output of vitest");
    expect(text.indexOf("━━ Tier 2/4: unit")).toBeLessThan(text.indexOf("━━ Tier 1/4: static"));
    expect(text).toContain(
      "━━ Tier 1/4: static, s (typecheck && lint)\noutput of typecheck\noutput of lint\n━━ Tier static passed in",
    );
    expect(text).toContain("━━ Tier 3/4: build, b (build)\noutput of build\n━━ Tier build passed in");
    const summary = lines.filter((l) => l.startsWith("   ")).map((l) => l.trim().split(" ")[0]);
    expect(summary.join(" ")).toBe("static unit build browser total");
  });

  it("fails when a tier beside another fails, once both have ended, and runs nothing after them", async () => {
    const lines: string[] = [];
    const ran: string[] = [];
    const chosen: Tier[] = [
      { name: "static", what: "s", commands: [["typecheck"], ["lint"]], beside: "unit" },
      { name: "unit", what: "u", commands: [["vitest"]] },
      { name: "browser", what: "e", commands: [["playwright"]] },
    ];
    const code = await runTiers(chosen, {
      run: async (command, _env, hold) => {
        ran.push(command[0]);
        hold?.("Type error\n");
        return command[0] === "typecheck" ? 2 : 0;
      },
      log: (line) => lines.push(line),
      now: clock(1000),
    });
    expect(code).toBe(2);
    expect(ran.sort()).toEqual(["typecheck", "vitest"]);
    expect(lines.join("\n")).toContain("━━ Tier 1/3: static, s (typecheck && lint)\nType error");
    expect(lines.at(-1)).toMatch(
      /^\n━━ FAILED: tier static \(typecheck exited with 2\) after .*\. Passed before it: none\. Run beside it: unit passed\. Not run: browser\.$/,
    );
  });

  it("keeps a failing tier's output at the end of the log: a tier beside it that passed shows only its last lines", async () => {
    const lines: string[] = [];
    const build = Array.from({ length: 40 }, (_, i) => `asset ${i + 1}`).join("\n");
    const chosen: Tier[] = [
      { name: "unit", what: "u", commands: [["vitest"]] },
      { name: "build", what: "b", commands: [["build"]], beside: "unit" },
    ];
    const code = await runTiers(chosen, {
      run: async (command, _env, hold) => {
        if (command[0] === "build") hold?.(`${build}\n`);
        else lines.push("FAIL tests/flaky.test.ts > the test that failed");
        return command[0] === "vitest" ? 1 : 0;
      },
      log: (line) => lines.push(line),
      now: clock(1000),
    });
    expect(code).toBe(1);
    const text = lines.join("\n");
    expect(text).toContain("(35 lines left out: this tier passed)\nasset 36\nasset 37\nasset 38\nasset 39\nasset 40");
    expect(text).not.toContain("asset 35\n");
    // What CI shows of a long log is its end: the failing test's name is within the last ten lines.
    expect(text.split("\n").slice(-12).join("\n")).toContain("FAIL tests/flaky.test.ts > the test that failed");
    expect(lastLines("a\nb\n", 5)).toBe("a\nb");
  });

  it("runs a tier on its own, in its place, when the tier it runs beside is not chosen", async () => {
    const ran: string[] = [];
    const code = await runTiers(chooseTiers(tiers, ["build", "browser"]), {
      run: async (command, _env, hold) => {
        ran.push(`${command.join(" ")}${hold ? " (held)" : ""}`);
        return 0;
      },
      log: () => {},
      now: clock(1000),
    });
    expect(code).toBe(0);
    expect(ran).toEqual(["npm run build", "npm run test:e2e"]);
  });

  it("runs only the tiers named, in run order, and refuses a name that is no tier", () => {
    expect(chooseTiers(tiers, ["bench", "system"]).map((t) => t.name)).toEqual(["system", "bench"]);
    expect(chooseTiers(tiers, [])).toHaveLength(tiers.length);
    expect(() => chooseTiers(tiers, ["e2e"])).toThrow(
      "No test tier called e2e; the tiers are static, unit, build, browser, system, bench.",
    );
  });

  it("writes durations in seconds, and minutes past one", () => {
    expect(formatDuration(8_340)).toBe("8.3 s");
    expect(formatDuration(245_000)).toBe("4 min 05 s");
  });
});
