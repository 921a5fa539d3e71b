import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { Random } from "../../app/seed/random.ts";
import { LISTING_FORM } from "../../tests/listing-form-values.ts";
import type { ListingRef } from "../bench/urls.ts";
import {
  type Answer,
  cookiesOf,
  createClient,
  createNetworkSource,
  locationOf,
  NO_ANSWER,
  visitorAddresses,
} from "./client.ts";

/**
 * The soak's mix (ADR 094): what one "action" of the traffic is, chosen by
 * weight. Reads are single requests; an owner's action is a short session
 * (sign in when needed, My Ads, then post or edit). Every write the server
 * acknowledges goes into the ledger, which the end of the run checks against
 * the database.
 */

export const MIX = {
  /** A page or API answer from the hot set, by Zipf-like popularity: most are page-cache hits. */
  hot: 60,
  /** A URL never asked for before (listing pages, filters, searches, deep pages, the JSON API): a render. */
  cold: 22,
  /** A listing page by a new visitor, so its view is counted (ADR 017). */
  view: 12,
  /** A place saved to a new visitor's shortlist (ADR 054). */
  save: 4,
  /** 'Report this listing', from a network of its own. */
  report: 1,
  /** An owner signs in if needed, opens My Ads, and posts a listing (up to 3) or edits one of theirs. */
  owner: 1,
} as const;
export type ActionKind = keyof typeof MIX;

/** An owner account made before the run, with a password the soak knows. */
export type SoakOwner = { email: string; password: string };

export type Ledger = {
  /** Owner's email → posts acknowledged (a later edit changes a post's title, never its owner). */
  posts: Map<string, number>;
  /** Listing id → the title of its last acknowledged edit. */
  edits: Map<number, string>;
  /** Listing id → saves acknowledged (each by a new visitor, so each is a shortlist row). */
  saves: Map<number, number>;
  /** Descriptions of acknowledged reports. */
  reports: string[];
};

/** One answered (or unanswered) request, as the per-minute figures count it. */
export type Outcome = { kind: ActionKind; ms: number; status: number; error: boolean; reason?: string };

/** The tests' valid listing form; each post or edit gives it a title of its own. */
const LISTING_FIELDS = LISTING_FORM;

/** A photo of its own for each post: random blocks, so the duplicate-photo check (ADR 077) sees a new one. */
async function freshPhoto(): Promise<Buffer> {
  const width = 32;
  const height = 24;
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .resize(640, 480, { kernel: "nearest" })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** Whether an answer is what a browser expects: 2xx or a redirect. */
const fine = (status: number) => status >= 200 && status < 400;

export function createTraffic(options: {
  base: string;
  random: Random;
  hot: readonly string[];
  hotRank: () => number;
  nextCold: () => string;
  /** Listings visitors open, save and report (not in the hot set: a report may hide one). */
  listings: readonly ListingRef[];
  reportTargets: readonly ListingRef[];
  owners: readonly SoakOwner[];
  visitors: number;
  record: (outcome: Outcome) => void;
}) {
  const { random, record } = options;
  const client = createClient(options.base, 256);
  const addresses = visitorAddresses(options.visitors);
  const nextNetwork = createNetworkSource();
  const ledger: Ledger = { posts: new Map(), edits: new Map(), saves: new Map(), reports: [] };
  const idle: { owner: SoakOwner; ip: string; cookie: string; uses: number; unanswered: boolean }[] =
    options.owners.map((owner, i) => ({
      owner,
      ip: `192.168.${Math.floor(i / 250)}.${1 + (i % 250)}`,
      cookie: "",
      uses: 0,
      unanswered: false,
    }));
  const visitor = () => random.pick(addresses);
  /**
   * Owners' answers that were not what a browser expects, each told once as it comes (up to 20 in a
   * run), with what the soak knew: the numbers of the ads My Ads listed and whether this owner's
   * earlier post got no answer (the server may have saved it after the client gave up).
   */
  let told = 0;
  const tell = (what: string, answer: Answer, ads: number[], unanswered: boolean) => {
    if (told++ >= 20) return;
    const where = answer.status >= 300 && answer.status < 400 ? ` to ${locationOf(answer)}` : "";
    const why = answer.reason ? ` (${answer.reason})` : "";
    console.log(
      `  owner's ${what}: ${answer.status}${where}${why}; My Ads listed ${ads.length} ad(s) [${ads.join(", ")}]; an earlier post unanswered: ${unanswered ? "yes" : "no"}`,
    );
  };
  let sequence = 0;
  const marker = () => `soak${(++sequence).toString(36)}${randomBytes(3).toString("hex")}`;

  const note = (kind: ActionKind, answer: Answer, expected = fine(answer.status)) => {
    const error = answer.status !== 429 && !expected;
    record({ kind, ms: answer.ms, status: answer.status, error, reason: answer.reason });
    return answer;
  };

  async function read(kind: "hot" | "cold" | "view", path: string) {
    note(kind, await client.get(path, visitor()));
  }

  async function save() {
    const listing = random.pick(options.listings);
    const body = new URLSearchParams({ intent: "save", listing: String(listing.id) });
    const answer = note("save", await client.send("/shortlist", visitor(), { body }));
    if (answer.status === 303) ledger.saves.set(listing.id, (ledger.saves.get(listing.id) ?? 0) + 1);
  }

  async function report() {
    const listing = random.pick(options.reportTargets);
    const description = `Soak report ${marker()}: the photos do not match the room.`;
    const body = new URLSearchParams({
      listingId: String(listing.id),
      reporterName: "Soak Tester",
      reporterEmail: "soak@example.lk",
      reporterContact: "0771234567",
      reason: "spam",
      description,
    });
    const answer = note("report", await client.send(`/listing/${listing.slug}/report`, nextNetwork(), { body }));
    if (answer.status === 200) ledger.reports.push(description);
  }

  /** One owner's visit; false when every owner is busy. */
  async function owner(): Promise<boolean> {
    const session = idle.shift();
    if (!session) return false;
    try {
      // A session lasts 30 days (ADR 019): an owner signs in again now and then, not at every visit.
      if (!session.cookie || session.uses >= 8) {
        const body = new URLSearchParams({ email: session.owner.email, password: session.owner.password });
        const login = await client.send("/login", session.ip, { body });
        note("owner", login, login.status === 302);
        if (login.status !== 302) return true;
        session.cookie = cookiesOf(login.headers);
        session.uses = 0;
      }
      session.uses += 1;
      const dashboard = await client.send("/dashboard", session.ip, { cookie: session.cookie, read: true });
      note("owner", dashboard, dashboard.status === 200);
      if (dashboard.status !== 200) return true;
      const ids = [
        ...new Set([...dashboard.body.matchAll(/\/dashboard\/listings\/(\d+)\/edit/g)].map((m) => Number(m[1]))),
      ];
      const title = `Room near campus ${marker()}`;
      // Under 3 ads an owner posts half the time and edits otherwise, so a short run edits too.
      if (ids.length === 0 || (ids.length < 3 && random.chance(0.5))) {
        const form = new FormData();
        for (const [name, value] of Object.entries({ ...LISTING_FIELDS, title })) form.append(name, value);
        form.append("amenities", "WiFi");
        form.append("photos", new Blob([new Uint8Array(await freshPhoto())], { type: "image/jpeg" }), "room.jpg");
        const posted = await client.send("/dashboard/listings/new", session.ip, { body: form, cookie: session.cookie });
        const acknowledged = posted.status === 302 && locationOf(posted).startsWith("/dashboard?posted=");
        note("owner", posted, acknowledged);
        if (!acknowledged && posted.status !== 429) tell("post", posted, ids, session.unanswered);
        if (posted.status === NO_ANSWER || posted.status >= 500) session.unanswered = true;
        const { email } = session.owner;
        if (acknowledged) ledger.posts.set(email, (ledger.posts.get(email) ?? 0) + 1);
      } else {
        const id = random.pick(ids);
        const form = new URLSearchParams({ ...LISTING_FIELDS, title });
        form.append("amenities", "WiFi");
        const edited = await client.send(`/dashboard/listings/${id}/edit`, session.ip, {
          body: form,
          cookie: session.cookie,
        });
        const acknowledged = edited.status === 302 && locationOf(edited).startsWith("/dashboard?");
        note("owner", edited, acknowledged);
        if (!acknowledged && edited.status !== 429) tell(`edit of ad ${id}`, edited, ids, session.unanswered);
        if (acknowledged) ledger.edits.set(id, title);
      }
      return true;
    } finally {
      idle.push(session);
    }
  }

  /** Runs one action of `kind` (an owner's when one is free, else a hot page). */
  async function run(kind: ActionKind): Promise<void> {
    if (kind === "hot") return read("hot", options.hot[options.hotRank()]);
    if (kind === "cold") return read("cold", options.nextCold());
    if (kind === "view") return read("view", `/listing/${random.pick(options.listings).slug}`);
    if (kind === "save") return save();
    if (kind === "report") return report();
    if (!(await owner())) return read("hot", options.hot[options.hotRank()]);
  }

  return { run, ledger, close: client.close };
}

/** Draws an action kind by the weights of `mix`. */
export function createKindPicker(random: Random, mix: Record<ActionKind, number> = MIX): () => ActionKind {
  const entries = Object.entries(mix) as [ActionKind, number][];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  return () => {
    let roll = random.next() * total;
    for (const [kind, weight] of entries) {
      roll -= weight;
      if (roll < 0) return kind;
    }
    return entries[0][0];
  };
}

export { NO_ANSWER };
