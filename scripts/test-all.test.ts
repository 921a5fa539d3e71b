import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { chooseTiers, formatDuration, runTiers, type Tier, tiers } from "./test-all";

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
