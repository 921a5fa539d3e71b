import { expect, it } from "vitest";
import { parseSoakArgs } from "./args.ts";

it("reads the soak's options, with the defaults the docs give", () => {
  expect(parseSoakArgs(["--minutes", "3"])).toMatchObject({
    minutes: 3,
    rate: undefined,
    db: "sqlite",
    listings: 40_000,
    owners: 60,
    port: 3399,
    keep: false,
    record: false,
  });
  expect(parseSoakArgs(["--minutes=30", "--db", "postgres", "--rate", "120", "--keep", "--record"])).toMatchObject({
    minutes: 30,
    record: true,
    db: "postgres",
    rate: 120,
    postgresUrl: "postgres://postgres@127.0.0.1:5432/postgres",
    keep: true,
  });
  expect(parseSoakArgs(["--help"])).toEqual({ help: true });
});

it("refuses what it cannot run, saying why", () => {
  expect(parseSoakArgs(["--minutes", "0"])).toEqual({ error: "--minutes must be a whole number from 1 to 1440" });
  expect(parseSoakArgs(["--db", "mysql"])).toEqual({ error: "--db must be sqlite or postgres" });
  expect(parseSoakArgs(["--database-url", "postgres://x/y"])).toEqual({
    error: "--database-url goes with --db postgres",
  });
  expect(parseSoakArgs(["--db", "postgres", "--database-url", "mysql://x"])).toEqual({
    error: "--database-url must be a postgres:// URL",
  });
  expect(parseSoakArgs(["--rate"])).toEqual({ error: "Missing value for --rate" });
  expect(parseSoakArgs(["--fast"])).toEqual({ error: "Unknown argument: --fast" });
});
