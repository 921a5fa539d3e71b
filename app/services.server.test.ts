import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";
import { secretsFor } from "./services.server";

// ADR 040: every server of a site signs sessions and hashes visitors alike. SESSION_SECRET gives
// them one secret without sharing a folder; one machine still needs no set-up.

describe("secrets", () => {
  it("come from SESSION_SECRET on every server alike, with nothing written to DATA_DIR", () => {
    const secret = "s".repeat(40);
    const dirs = [1, 2].map(() => fs.mkdtempSync(path.join(os.tmpdir(), "bodima-secrets-")));
    try {
      const [a, b] = dirs.map((dir) => secretsFor(parseEnv({ SESSION_SECRET: secret, DATA_DIR: dir })));
      expect(a).toEqual(b);
      expect(a.sessionSecret).toBe(secret);
      expect(a.visitorSalt).toMatch(/^[0-9a-f]{32}$/);
      expect(a.visitorSalt).not.toContain(secret.slice(0, 8));
      for (const dir of dirs) expect(fs.existsSync(path.join(dir, "secrets.json"))).toBe(false);
    } finally {
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("are generated once into DATA_DIR/secrets.json when SESSION_SECRET is unset, and kept", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-secrets-"));
    try {
      const first = secretsFor(parseEnv({ DATA_DIR: dir }));
      expect(first.sessionSecret).toMatch(/^[0-9a-f]{64}$/);
      expect(secretsFor(parseEnv({ DATA_DIR: dir }))).toEqual(first);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuse a short SESSION_SECRET at start-up, naming it", () => {
    expect(() => parseEnv({ SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET must be at least 32 characters/);
  });
});
