import type { Generated, GeneratedAlways, Insertable, Selectable, Updateable } from "kysely";
import type { ListingStatus } from "~/schemas/listing-status";

/**
 * Table types. Conventions, the migrations' too: ISO-8601 text timestamps,
 * integer LKR amounts, 0/1 booleans, JSON arrays stored as text.
 * Account tables follow better-auth's core schema so it can share our database.
 */
export type UsersTable = {
  id: string;
  name: string;
  email: string;
  /** better-auth's flag: 1 once the address was confirmed by its emailed link (ADR 066). */
  emailVerified: number;
  /** When the address was confirmed (our dated record), null until then (ADR 066). */
  emailConfirmedAt: Generated<string | null>;
  image: string | null;
  phone: string;
  role: string; // 'owner' | 'moderator'
  status: string; // 'active' | 'suspended'
  /** Preferred language for the emails the account receives: 'en' | 'si' | 'ta' (ADR 069). */
  locale: Generated<string>;
  createdAt: string;
  updatedAt: string;
};

export type AccountsTable = {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: string | null;
  refreshTokenExpiresAt: string | null;
  scope: string | null;
  password: string | null;
  createdAt: string;
  updatedAt: string;
};

export type SessionsTable = {
  id: string;
  userId: string;
  token: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: string;
  updatedAt: string;
};

export type VerificationsTable = {
  id: string;
  identifier: string;
  value: string;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
};

export type ListingsTable = {
  /** Also the ad number: the first listing is 1001. */
  id: Generated<number>;
  slug: string;
  title: string;
  description: string;
  price: number;
  keymoneyFee: number | null;
  /** Months of rent asked in advance (0-12); null when not stated (migration 015). */
  advanceMonths: number | null;
  /** A refundable deposit in LKR; null when not stated. */
  deposit: number | null;
  /** Key money + deposit + the advance, worked out by the database; null while the advance is not stated (migration 016). */
  moveInCost: GeneratedAlways<number | null>;
  /** What the public sees: the owner's own words only if they show the exact point (ADR 065). */
  location: string | null;
  /** The map link or text as the owner gave it, for their edit form only (migration 027). */
  ownerLocation: Generated<string | null>;
  /** Where the listing is (decimal degrees), from its map link or typed coordinates; null when not given (migration 017). */
  latitude: number | null;
  longitude: number | null;
  /** 1: the owner shows the exact point; 0: the public sees it rounded to about 100 m (migration 020). */
  exactPosition: Generated<number>;
  /** The contact number is on WhatsApp / Viber, as its owner said (ADR 087): 0 or 1. */
  whatsapp: Generated<number>;
  viber: Generated<number>;
  /** The number WhatsApp opens when it is not the contact number, as typed; null: the contact number (ADR 092). */
  whatsappPhone: Generated<string | null>;
  /** Where distance counts from: the position rounded as shown in public, else the city's centre (ADR 050). */
  placeLatitude: number;
  placeLongitude: number;
  /** floor(placeLatitude × 100): the latitude band the place index finds circles by (migration 018). */
  placeBand: GeneratedAlways<number>;
  /** The facts students ask first, null while not stated (migration 019, app/schemas/listing-facts.ts). */
  bills: string | null;
  meals: string | null;
  bathroom: string | null;
  bedsFree: number | null;
  bedsTotal: number | null;
  curfew: string | null;
  visitors: string | null;
  cooking: string | null;
  university: string;
  faculty: string;
  city: string;
  propertyType: string; // single | shared | apartment | hostel
  gender: string; // any | male | female
  amenities: string; // JSON array of amenity names
  userId: string;
  userEmail: string;
  contactName: string;
  contactPhone: string;
  /** The contact phone in E.164, null when it is no Sri Lankan number (migration 034, ADR 076). */
  contactPhoneE164: Generated<string | null>;
  /** When the trust checks last found the photos in no other owner's ad; null: not checked (migration 037). */
  photosCheckedAt: Generated<string | null>;
  /**
   * When the owner's standing confirmation of the ad's number lapses (confirmedAt + 180 days);
   * null: none. Browse's 'Phone confirmed only' reads it (migration 039, ADR 084).
   */
  phoneConfirmedUntil: Generated<string | null>;
  /** Typed so a comparison with a word that is no status fails to compile (ADR 063). */
  status: ListingStatus;
  expiresAt: string;
  hiddenReason: string | null;
  /** The expiry the 14-day availability reminder was sent for; null: none yet (migration 022). */
  reminderFor: Generated<string | null>;
  /** When students on three networks said it is already let (ADR 064); null once its owner confirms (migration 023). */
  unconfirmedSince: Generated<string | null>;
  /** Why it is hidden: 'moderator' | 'reports' (automatic) | 'suspension' (owner suspended). */
  hiddenBy: string | null;
  /** The status a hide took it from, which a restore returns to; null while not hidden (migration 029). */
  statusBeforeHide: ListingStatus | null;
  /** How many times its state was decided; an availability link answers one version (migration 029, ADR 063). */
  stateVersion: Generated<number>;
  createdAt: string;
  updatedAt: string;
};

export type ListingPhotosTable = {
  id: string;
  listingId: number | null; // null until attached to a listing
  userId: string;
  position: number;
  width: number;
  height: number;
  bytes: number;
  /** JSON: [{ width, height, bytes, key }] WebP variants, smallest first. */
  variants: string;
  alt: string | null;
  createdAt: string;
};

/** A listing's description sketch (migration 038, ADR 079); kept 180 days after the listing goes. */
export type DescriptionSketchesTable = {
  listingId: number;
  userId: string;
  /** 1 for demo and synthetic listings: never matched. */
  seeded: number;
  /** The sorted 32-bit hashes of the 3-word shingles, 4 bytes each in base64; empty: nothing to compare. */
  shingles: string;
  createdAt: string;
  /** When the listing was deleted or removed; null while it is there. */
  removedAt: string | null;
};

/** One LSH band of a description sketch (migration 038): the lookup, all in the primary key. */
export type DescriptionBandsTable = {
  /** The band's hash (signed 32-bit). */
  key: number;
  band: number;
  listingId: number;
};

/** A photo's perceptual fingerprint (migration 032, ADR 074); kept 180 days after the photo goes. */
export type PhotoFingerprintsTable = {
  photoId: string;
  /** Null while the photo is an upload no listing has claimed. */
  listingId: number | null;
  userId: string;
  /** 1 for demo and synthetic photos and plain pictures (one colour, ADR 082): never matched. */
  seeded: number;
  /** The 64-bit pHash as 16 hex digits, and its four 16-bit chunks (each indexed). */
  hash: string;
  chunk0: number;
  chunk1: number;
  chunk2: number;
  chunk3: number;
  /** The same of the mirrored image. */
  mirrored: string;
  mirrored0: number;
  mirrored1: number;
  mirrored2: number;
  mirrored3: number;
  /** SHA-256 of the decoded pixels. */
  exact: string;
  createdAt: string;
  /** When the photo, or its listing, was removed; null while it is there. */
  removedAt: string | null;
};

export type ListingViewsTable = {
  listingId: number;
  sessionKey: string;
  visitorKey: string;
  viewedAt: string;
};

/**
 * A listing's view counts, apart from its wide and much-indexed row so that
 * counting a view rewrites only this (migration 044, ADR 111). No row: never viewed.
 */
export type ListingCountersTable = {
  listingId: number;
  views: Generated<number>;
  uniqueViews: Generated<number>;
  lastViewed: string | null;
};

/**
 * Listings per status, kept by triggers on `listings` (migration 047, ADR 127): the site's
 * figures read a row here instead of counting every listing.
 */
export type ListingStatusCountsTable = {
  status: string;
  count: number;
};

/** What an ad did per day in Asia/Colombo (YYYY-MM-DD): counts only (migration 041, ADR 089). */
export type ListingDailyCountsTable = {
  listingId: number;
  day: string;
  views: Generated<number>;
  saves: Generated<number>;
  calls: Generated<number>;
  whatsapp: Generated<number>;
  viber: Generated<number>;
};

export type ReportsTable = {
  id: string;
  listingId: number;
  reporterName: string;
  reporterEmail: string;
  reporterContact: string;
  reason: string;
  description: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
  /** The reporter's network: IPv4 /24 or IPv6 /64 (`networkOrigin` in app/limits/client-ip.server.ts); null before migration 007 (ADR 017). */
  originGroup: string | null;
  /** Salted hash of the reporter's signed visitor id; null when the report came without one. */
  visitorKey: string | null;
  /** The signed-in reporter's account. */
  reporterUserId: string | null;
  /** When moderators were emailed about it; null while it waits for the hourly digest. */
  notifiedAt: string | null;
};

export type ContactMessagesTable = {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: string; // new | answered
  createdAt: string;
};

export type OutboxTable = {
  id: string;
  kind: string; // 'password-reset' | 'contact' | …
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  status: string; // pending | sending | sent | logged | failed
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  sentAt: string | null;
  createdAt: string;
  /** The sender holding the claim while status is 'sending' (migration 013). */
  claimedBy: string | null;
  /** Extra headers as a JSON object, e.g. List-Unsubscribe (migration 025); null for none. */
  headers: string | null;
};

export type AuditLogTable = {
  id: string;
  /** null: the system (a listing hidden automatically by reports). */
  actorId: string | null;
  actorEmail: string | null;
  action: string; // report.dismiss | report.review | listing.hide | listing.restore | user.suspend | user.reinstate | listing.auto-hide | listing.hold | listing.approve | listing.reject
  targetType: string; // listing | user | report
  targetId: string;
  reason: string | null;
  createdAt: string;
};

/** A listing held for review (migration 036, ADR 078): open while decidedAt is null. */
export type ListingHoldsTable = {
  id: string;
  listingId: number;
  /** JSON array of HoldSignal (app/schemas/review-hold.ts). */
  signals: string;
  heldAt: string;
  decidedAt: string | null;
  decision: "approved" | "rejected" | null;
  /** The moderator's user id; null from the command line. */
  decidedBy: string | null;
  decisionReason: string | null;
  /** When the moderators' digest named it; null: not yet. */
  digestMailedAt: string | null;
};

/** The page cache's invalidation log (migration 005, ADR 012). */
export type PageInvalidationsTable = {
  id: Generated<number>;
  /** The listing whose pages changed; null: every public page. */
  listingId: number | null;
  /** 1: only its view counts changed (its own pages, not the lists). */
  viewsOnly: Generated<number>;
  createdAt: string;
};

/** Timed jobs' schedule and lease: one runner at a time across every process and server (migration 013, ADR 039). */
/** 'Already let? Tell us' (migration 023): one per browser per listing. */
export type LetReportsTable = {
  listingId: number;
  /** Salted hash of the browser's signed visitor id. */
  visitorKey: string;
  /** The signed-in account behind the answer, if any. */
  userId: string | null;
  /** The reporter's network (IPv4 /24, IPv6 /56 since ADR 064): three networks are needed. */
  originGroup: string;
  /** 1 when the answer counted towards 'availability unconfirmed' (ADR 064). */
  counts: Generated<number>;
  createdAt: string;
};

/** When a listing's owner was last emailed that students say it may be let (one a week: ADR 064). */
export type LetOwnerMailsTable = {
  listingId: number;
  sentAt: string;
};

/** A browser's shortlist (migration 021, ADR 054). */
export type ShortlistsTable = {
  id: string;
  /** Salted hash of the browser's signed visitor id (hashViewerId "visitor"): the list's only owner. */
  visitorKey: string;
  /** The code of its shared link (/s/{code}); null while not shared or after it was revoked. */
  shareCode: string | null;
  createdAt: string;
  updatedAt: string;
};

/** A saved search whose new matches are emailed at most daily (migration 025, ADR 058). */
/** One manage link sent to an address (ADR 067): random, stored as its SHA-256, expiring, revocable. */
export type AlertManageLinksTable = {
  tokenHash: string;
  /** Trimmed and lower-cased. */
  email: string;
  createdAt: string;
  expiresAt: string;
};

export type SearchAlertsTable = {
  /** Random, 22 characters: the alert's links sign it. */
  id: string;
  /** Trimmed and lower-cased. */
  email: string;
  /**
   * SHA-256 of the address's old signed manage link (ADR 058), "" for alerts made since ADR 067:
   * it only recognises an old link, whose page then offers to email a fresh one.
   */
  manageKey: string;
  /** The language its emails are written in. */
  locale: string;
  /** The browse query it watches, canonical (filtersToSearchParams, without order or page). */
  query: string;
  /** What it watches in words ('University of Moratuwa, Up to LKR 20,000'), written in `locale` when it was made. */
  label: string;
  createdAt: string;
  /** Null until confirmed: nothing but the confirmation is sent before. */
  confirmedAt: string | null;
  /** The highest ad number already considered: newer matches are new. */
  seenUpTo: number;
  lastSentAt: string | null;
  /** Stopped from an email's link; removed a week later unless turned back on. */
  stoppedAt: string | null;
};

export type ShortlistItemsTable = {
  shortlistId: string;
  listingId: number;
  addedAt: string;
};

export type JobLeasesTable = {
  name: string;
  holder: string | null;
  leaseUntil: string | null;
  nextRunAt: string;
  lastRunAt: string | null;
};

/** One code sent to a phone (migration 033, ADR 076). */
export type PhoneCodesTable = {
  id: string;
  userId: string;
  /** E.164. */
  phone: string;
  /** HMAC of the code; null when the SMS provider keeps the code (a verify service, ADR 075). */
  codeHash: string | null;
  /** Checks made against this code (at most 3). */
  tries: Generated<number>;
  createdAt: string;
  expiresAt: string;
  /** When it confirmed the number (or was spent on a number taken by another account). */
  usedAt: string | null;
};

/** Who confirmed which number and when (migration 033, ADR 076). */
export type PhoneConfirmationsTable = {
  id: string;
  userId: string;
  /** E.164. */
  phone: string;
  confirmedAt: string;
  /** When another account took the number over; null while it stands. */
  endedAt: string | null;
};

/** Texts sent per UTC day (YYYY-MM-DD), the global daily budget (migration 033). */
export type SmsBudgetTable = {
  day: string;
  sent: Generated<number>;
};

export type Database = {
  users: UsersTable;
  accounts: AccountsTable;
  sessions: SessionsTable;
  verifications: VerificationsTable;
  listings: ListingsTable;
  listing_photos: ListingPhotosTable;
  photo_fingerprints: PhotoFingerprintsTable;
  description_sketches: DescriptionSketchesTable;
  description_bands: DescriptionBandsTable;
  listing_views: ListingViewsTable;
  listing_daily_counts: ListingDailyCountsTable;
  listing_counters: ListingCountersTable;
  listing_status_counts: ListingStatusCountsTable;
  reports: ReportsTable;
  contact_messages: ContactMessagesTable;
  outbox: OutboxTable;
  audit_log: AuditLogTable;
  page_invalidations: PageInvalidationsTable;
  job_leases: JobLeasesTable;
  shortlists: ShortlistsTable;
  let_reports: LetReportsTable;
  let_owner_mails: LetOwnerMailsTable;
  shortlist_items: ShortlistItemsTable;
  search_alerts: SearchAlertsTable;
  alert_manage_links: AlertManageLinksTable;
  phone_codes: PhoneCodesTable;
  phone_confirmations: PhoneConfirmationsTable;
  sms_budget: SmsBudgetTable;
  listing_holds: ListingHoldsTable;
};

export type ListingRow = Selectable<ListingsTable>;
export type NewListingRow = Insertable<ListingsTable>;
export type ListingUpdate = Updateable<ListingsTable>;
export type PhotoRow = Selectable<ListingPhotosTable>;
export type UserRow = Selectable<UsersTable>;
