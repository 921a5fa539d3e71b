import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import sharp from "sharp";
import { afterAll, beforeAll, expect } from "vitest";
import type { DB } from "../app/db/db.server";
import { LIMIT_NAMES, type LimitName, type LimitRule } from "../app/limits/rate-limit.server";
import { createOwnerListing } from "../app/models/owner-listings.server";
import * as report from "../app/routes/listing.report";
import { createLocalPhotoStorage, type PhotoStorage } from "../app/storage/storage.server";
import { insertTestOwner } from "./factories";
import { LISTING_FORM, signedInAccount } from "./owner-fixtures";
import { TEST_SITE, testContext, unwrapResult } from "./request-context";

// Property-based fuzzing of every form action and API endpoint (ADR 010):
// random and hostile values never cause a 5xx or a thrown error, and text a
// user saves reads back from the database exactly as the server received it
// (after the schemas' trimming; NUL is stripped by app/db/strip-nul-plugin.ts)
// or is refused with a 4xx. Fixed seed: a failure reproduces.

const SEED = 20261122;
const RUNS = 20;
export const settingsFor = (numRuns = RUNS) => ({ seed: SEED, numRuns, endOnFailure: true });
/** Ids that pass a digits-only check but overflow PostgreSQL's integer column (a 500 once): always tried. */
export const BIG_IDS = ["2147483648", "999999999999"];

/** No rate limit gets in the fuzzer's way (integration tests cover each limit). */
export const NO_LIMITS = Object.fromEntries(
  LIMIT_NAMES.map((n) => [n, { max: 1_000_000, windowSeconds: 60 }]),
) as Record<LimitName, LimitRule>;

// ---------------------------------------------------------------- values

const PAYLOADS = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '"><svg onload=alert(1)>',
  "javascript:alert(1)",
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  "1; SELECT pg_sleep(1) --",
  "%' UNION SELECT * FROM sessions --",
  "\0",
  "a\0b",
  "\0\0\0",
  "مرحبا بالعالم",
  "שלום \u202Eevil\u202C",
  "සිංහල අකුරු",
  "தமிழ்",
  "🏠👨‍👩‍👧‍👦🇱🇰",
  "Z̴̡̧̛a̷l̸g̵o̶",
  "\uFEFF\u200B\u00A0",
  "\r\n\r\n",
  "   ",
  "",
  "../../etc/passwd",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as plain text
  "{{7*7}}${7*7}",
  "__proto__",
  "constructor",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "-1",
  "0",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "9".repeat(400),
  "-99999999999999999999",
  "0x1F",
  "12.5",
  "%00",
  "%E0%A4%A",
  "x".repeat(70_000),
  "é".repeat(5001),
];

/** Text a person or an attacker might type. */
export const text = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...PAYLOADS), fc.string({ unit: "grapheme", maxLength: 20 }))
      .map(([a, b]) => a + b),
  },
);

type FileValue = { file: Uint8Array; name: string; type: string };
export type FieldValue = string | string[] | FileValue;

const fileValue: fc.Arbitrary<FileValue> = fc.record({
  file: fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.constant(new TextEncoder().encode("<script>alert(1)</script>"))),
  name: fc.oneof(fc.constantFrom("photo.jpg", "../../evil.sh", "a\0.png", "", "x".repeat(300)), text),
  type: fc.constantFrom("image/jpeg", "text/html", "application/octet-stream", ""),
});

/** A form value of any shape: text, a repeated parameter, or a file where text is expected. */
const fieldValue: fc.Arbitrary<FieldValue> = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 1, arbitrary: fc.array(text, { minLength: 2, maxLength: 3 }) },
  { weight: 1, arbitrary: fileValue },
);

/** Hostile values for some of `fields` (the rest keep the valid base), plus unknown extras. */
export function overrides(fields: readonly string[]): fc.Arbitrary<Overrides> {
  return fc.record({
    values: fc.record(
      Object.fromEntries(fields.map((f) => [f, fieldValue])) as Record<string, fc.Arbitrary<FieldValue>>,
      { requiredKeys: [] },
    ),
    extra: fc.dictionary(
      fc.constantFrom("userId", "status", "role", "id", "slug", "views", "__proto__", "constructor", "intent"),
      text,
      { maxKeys: 2 },
    ),
    multipart: fc.boolean(),
  });
}
export type Overrides = {
  values: Record<string, FieldValue | undefined>;
  extra: Record<string, string>;
  multipart: boolean;
};

/**
 * Either anything in any field, or only hostile *text* in the fields a user
 * saves (the rest valid), so that round trips through the database happen often.
 */
export function inputs(fields: readonly string[], saved: readonly string[]): fc.Arbitrary<Overrides> {
  const savedOnly = fc.record({
    values: fc.record(Object.fromEntries(saved.map((f) => [f, text])) as Record<string, fc.Arbitrary<FieldValue>>),
    extra: fc.constant({}),
    multipart: fc.boolean(),
  });
  return fc.oneof(overrides(fields), savedOnly);
}

export function body(base: Record<string, FieldValue>, o: Overrides): FormData | URLSearchParams {
  const entries = Object.entries({ ...base, ...o.extra, ...o.values }).filter(
    (e): e is [string, FieldValue] => e[1] !== undefined,
  );
  if (o.multipart) {
    const form = new FormData();
    for (const [k, v] of entries) {
      for (const one of Array.isArray(v) ? v : [v]) {
        if (typeof one === "string") form.append(k, one);
        else form.append(k, new File([one.file as Uint8Array<ArrayBuffer>], one.name, { type: one.type }));
      }
    }
    return form;
  }
  const params = new URLSearchParams();
  for (const [k, v] of entries)
    for (const one of Array.isArray(v) ? v : [v]) params.append(k, typeof one === "string" ? one : one.name);
  return params;
}

// ---------------------------------------------------------------- calls

export type Handler = (args: never) => unknown;
type Outcome = { status: number; body: Record<string, unknown> };

/** A loader's or action's answer; a thrown Response or data() is an answer too. Anything else thrown fails the test. */
export async function call(
  handler: Handler,
  request: Request,
  context: ReturnType<typeof testContext>,
  params: Record<string, string | undefined> = {},
): Promise<Outcome> {
  try {
    return unwrapResult(await handler({ request, context, params } as never));
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: {} };
    if (thrown && typeof thrown === "object" && "init" in thrown && "data" in thrown) return unwrapResult(thrown);
    throw thrown;
  }
}

export function post(url: string, form: FormData | URLSearchParams, cookie?: string): Request {
  const headers = new Headers({ origin: TEST_SITE, "user-agent": "Mozilla/5.0 (fuzz)" });
  if (cookie) headers.set("cookie", cookie);
  return new Request(`${TEST_SITE}${url}`, { method: "POST", headers, body: form });
}

export function get(url: string, cookie?: string): Request {
  const headers = new Headers({ "user-agent": "Mozilla/5.0 (fuzz)" });
  if (cookie) headers.set("cookie", cookie);
  return new Request(url.startsWith("http") ? url : `${TEST_SITE}${url}`, { headers });
}

export function expectNo5xx(outcome: Outcome, what: string) {
  expect(outcome.status, `${what}: ${JSON.stringify(outcome.body).slice(0, 300)}`).toBeLessThan(500);
}

/** What the server received for a text field (multipart turns lone \n into \r\n, as browsers do). */
export async function received(request: Request, field: string): Promise<string | null> {
  const value = (await request.clone().formData()).get(field);
  return typeof value === "string" ? value : null;
}

/** Stored text equals what was received after the documented trimming and NUL stripping. */
export function stored(sent: string): string {
  return sent.trim().replaceAll("\0", "");
}

// ---------------------------------------------------------------- fixtures

let counter = 0;
export const unique = (tag: string) => `${tag}${++counter}${Math.random().toString(36).slice(2, 6)}`;
/** A signed-in account, flattened to what the fuzz tests use. */
export async function signedIn(db: DB, role: "owner" | "moderator" = "owner") {
  const { owner, cookie } = await signedInAccount(db, unique("fuzz"), { name: "Fuzz Owner", role });
  return { ...owner, cookie };
}

export const LISTING_BASE = LISTING_FORM;
export const LISTING_FIELDS = [
  ...Object.keys(LISTING_BASE),
  "amenities",
  "photos",
  "uploadIds",
  "removePhotos",
  "attempt",
  "enhanced",
];

export const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 140, b: 60 } } })
    .jpeg()
    .toBuffer();

/** What every fuzz file starts from, made once per database before its tests (beforeAll). */
export type FuzzFixtures = {
  storage: PhotoStorage;
  photo: Buffer;
  owner: Awaited<ReturnType<typeof signedIn>>;
  moderator: Awaited<ReturnType<typeof signedIn>>;
  parking: string;
  listing: { id: number; slug: string };
  reportId: string;
};

/**
 * Registers the fixtures' beforeAll in the calling describe: an owner with one listing (and a
 * photo), a moderator, a parked owner and one report, in the describe's fresh database. Tests
 * read them through `ready()` (named `fx` in the files); `context()` is a request context on this
 * database with no rate limits.
 */
export function fuzzFixtures(ctx: () => { db: DB }) {
  let made: FuzzFixtures | null = null;
  const ready = (): FuzzFixtures => {
    if (!made) throw new Error("the fuzz fixtures are made in beforeAll");
    return made;
  };
  const context = () => testContext({ db: ctx().db, storage: ready().storage, limits: NO_LIMITS });

  // Vitest runs a worker's files in one module graph (isolate: false), so each describe removes its own folder.
  let photoDir: string | null = null;
  afterAll(() => {
    if (photoDir) fs.rmSync(photoDir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    const { db } = ctx();
    photoDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-fuzz-"));
    const storage = createLocalPhotoStorage(photoDir);
    const photo = await jpeg();
    const owner = await signedIn(db);
    const moderator = await signedIn(db, "moderator");
    const parking = (await insertTestOwner(db, crypto.randomUUID())).id;
    const created = await createOwnerListing(db, storage, owner, LISTING_BASE, { files: [photo] });
    if (!created.ok) throw new Error(created.code);
    const listing = await db
      .selectFrom("listings")
      .select(["id", "slug"])
      .where("userId", "=", owner.id)
      .executeTakeFirstOrThrow();
    made = { storage, photo, owner, moderator, parking, listing, reportId: "" };
    const reported = await call(
      report.action as Handler,
      post(
        `/listing/${listing.slug}/report`,
        new URLSearchParams({
          listingId: String(listing.id),
          reporterName: "R",
          reporterEmail: "r@example.com",
          reporterContact: "0771234567",
          reason: "spam",
          description: "",
        }),
      ),
      context(),
      { slug: listing.slug },
    );
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    made.reportId = String((await db.selectFrom("reports").select("id").executeTakeFirstOrThrow()).id);
  });

  /**
   * A listing posted by the fuzz owner moves to a parked owner and off its number, so neither the
   * 3-ad limit per account nor the one per phone (ADR 076) closes the form.
   */
  async function parkListings() {
    const { owner, parking, listing } = ready();
    await ctx()
      .db.updateTable("listings")
      .set({ userId: parking, contactPhoneE164: null })
      .where("userId", "=", owner.id)
      .where("id", "!=", listing.id)
      .execute();
  }

  return { ready, context, parkListings };
}
