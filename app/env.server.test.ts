import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("needs no configuration at all", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.SITE_NAME).toBe("Bodima");
    expect(env.siteUrl).toBe("http://localhost:3000");
    expect(env.dataDir).toMatch(/data$/);
    expect(env.TRUST_PROXY).toBe(false);
  });

  it("names each bad variable with a clear message", () => {
    expect(() => parseEnv({ PORT: "eighty", SITE_URL: "bodima.lk", DATABASE_URL: "mysql://x" })).toThrowError(
      /PORT: PORT must be a number[\s\S]*DATABASE_URL: DATABASE_URL must start with postgres:\/\/[\s\S]*SITE_URL: SITE_URL must be an http\(s\) URL/,
    );
    expect(() => parseEnv({ PORT: "70000" })).toThrowError(/PORT must be between 1 and 65535/);
  });

  it("takes a map tile template with {z}, {x} and {y} on http(s) only (ADR 053)", () => {
    expect(parseEnv({}).MAP_TILE_URL).toBeUndefined();
    const url = "https://tiles.example.lk/{z}/{x}/{y}.png";
    expect(parseEnv({ MAP_TILE_URL: url }).MAP_TILE_URL).toBe(url);
    for (const bad of [
      "tiles.example.lk/{z}/{x}/{y}.png",
      "https://tiles.example.lk/tile.png",
      "javascript:alert(1)//{z}{x}{y}",
    ])
      expect(() => parseEnv({ MAP_TILE_URL: bad })).toThrowError(
        /MAP_TILE_URL must be an http\(s\) address with \{z\}/,
      );
  });

  it("trims a trailing slash from SITE_URL and reads TRUST_PROXY", () => {
    const env = parseEnv({ SITE_URL: "https://bodima.lk/", TRUST_PROXY: "1" });
    expect(env.siteUrl).toBe("https://bodima.lk");
    expect(env.TRUST_PROXY).toEqual({ hops: 1 });
  });

  it("reads TRUST_PROXY as the proxies' addresses or ranges, or a number of proxies (ADR 064)", () => {
    const read = (value: string) => parseEnv({ TRUST_PROXY: value }).TRUST_PROXY;
    for (const off of ["", "0", "false", "no"]) expect(read(off), off).toBe(false);
    for (const one of ["1", "true", "yes", "TRUE"]) expect(read(one), one).toEqual({ hops: 1 });
    expect(read("2")).toEqual({ hops: 2 });
    expect(read("127.0.0.1")).toEqual({ proxies: ["127.0.0.1"] });
    expect(read(" 10.0.0.0/8, FD00::/8 ,::1")).toEqual({ proxies: ["10.0.0.0/8", "fd00::/8", "::1"] });
    for (const bad of ["any", "10.0.0.0/33", "fd00::/129", "10.0.0.0/8/1", "10.0.0.0/", "10.0.0.0/8,", "-1", "999"])
      expect(() => read(bad), bad).toThrowError(
        /TRUST_PROXY: TRUST_PROXY must list your reverse proxies' addresses or ranges/,
      );
  });
});

describe("NOW", () => {
  it("moves the clock outside production only, and must be an ISO time", () => {
    expect(parseEnv({ NODE_ENV: "test", NOW: "2027-01-15T09:00:00Z" }).NOW).toBe("2027-01-15T09:00:00Z");
    expect(parseEnv({}).NOW).toBeUndefined();
    expect(() => parseEnv({ NODE_ENV: "test", NOW: "next tuesday" })).toThrowError(
      /NOW: NOW must be an ISO time such as 2027-01-15T09:00:00Z/,
    );
    expect(() => parseEnv({ NOW: "2027-01-15T09:00:00Z" })).toThrowError(
      /NOW: only for trying time-based rules outside production/,
    );
  });
});

describe("siteIsLocal (demo data and the mail warning, ADR 018)", () => {
  it("is true only for this machine's addresses", () => {
    for (const siteUrl of [
      undefined,
      "http://localhost:3000",
      "http://127.0.0.1:3210",
      "http://[::1]:3000",
      "http://LOCALHOST",
    ]) {
      expect(parseEnv(siteUrl ? { SITE_URL: siteUrl } : {}).siteIsLocal, siteUrl).toBe(true);
    }
    for (const siteUrl of [
      "https://bodima.lk",
      "http://192.168.1.5:3000",
      "http://localhost.evil.example",
      "https://127.0.0.1.nip.io",
      "http://10.0.0.1",
    ]) {
      expect(parseEnv({ SITE_URL: siteUrl }).siteIsLocal, siteUrl).toBe(false);
    }
  });

  it("SMS_URL: a gateway, or the outbox, which a public production site refuses (ADR 075)", () => {
    expect(parseEnv({}).smsUrl).toBe("outbox:");
    expect(parseEnv({ NODE_ENV: "production" }).smsUrl).toBe("outbox:");
    expect(parseEnv({ SITE_URL: "https://bodima.lk" }).smsUrl).toBeUndefined();
    expect(parseEnv({ SITE_URL: "https://bodima.lk", SMS_URL: "notifylk://1234:key@Bodima" }).smsUrl).toBe(
      "notifylk://1234:key@Bodima",
    );
    expect(parseEnv({ SMS_URL: "twilio-verify://AC1:token@VA1" }).smsUrl).toBe("twilio-verify://AC1:token@VA1");
    expect(parseEnv({ SITE_URL: "https://bodima.lk", NODE_ENV: "development", SMS_URL: "outbox:" }).smsUrl).toBe(
      "outbox:",
    );
    expect(() => parseEnv({ SITE_URL: "https://bodima.lk", NODE_ENV: "production", SMS_URL: "outbox:" })).toThrowError(
      /SMS_URL: outbox: keeps codes in the database instead of texting them; a public site needs a real gateway/,
    );
    for (const bad of ["https://app.notify.lk/api/v1/send", "notifylk://Bodima", "twilio-verify://AC1@VA1"])
      expect(() => parseEnv({ SMS_URL: bad }), bad).toThrowError(
        /SMS_URL: SMS_URL must be notifylk:\/\/USER_ID:API_KEY@SENDER_ID, twilio-verify:\/\/ACCOUNT_SID:AUTH_TOKEN@SERVICE_SID or outbox:/,
      );
    expect(parseEnv({}).SMS_DAILY_BUDGET).toBe(500);
    expect(() => parseEnv({ SMS_DAILY_BUDGET: "-1" })).toThrowError(/SMS_DAILY_BUDGET must be 0/);
  });

  it("SEED_DEMO takes auto, always or never", () => {
    expect(parseEnv({}).SEED_DEMO).toBe("auto");
    expect(parseEnv({ SEED_DEMO: "always" }).SEED_DEMO).toBe("always");
    expect(() => parseEnv({ SEED_DEMO: "yes" })).toThrowError(/SEED_DEMO: SEED_DEMO must be auto, always or never/);
  });
});
