import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration: never edit after it has shipped; add a new one instead.
// Typed Kysely<any> so it does not depend on the app's current types.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);

  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("emailVerified", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("image", "text")
    .addColumn("phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("role", "text", (c) => c.notNull().defaultTo("owner"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("accounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("accountId", "text", (c) => c.notNull())
    .addColumn("providerId", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("accessToken", "text")
    .addColumn("refreshToken", "text")
    .addColumn("idToken", "text")
    .addColumn("accessTokenExpiresAt", "text")
    .addColumn("refreshTokenExpiresAt", "text")
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("accounts_user_idx").on("accounts").column("userId").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .addColumn("ipAddress", "text")
    .addColumn("userAgent", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("userId").execute();

  await db.schema
    .createTable("verifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("verifications_identifier_idx").on("verifications").column("identifier").execute();

  // The id is the ad number: an identity column starting at 1001 is unique
  // under concurrent inserts on both databases.
  await db.schema
    .createTable("listings")
    .addColumn("id", "integer", (c) =>
      pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("price", "integer", (c) => c.notNull())
    .addColumn("keymoneyFee", "integer")
    .addColumn("location", "text")
    .addColumn("university", "text", (c) => c.notNull())
    .addColumn("faculty", "text", (c) => c.notNull().defaultTo("Main Campus"))
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("propertyType", "text", (c) => c.notNull())
    .addColumn("gender", "text", (c) => c.notNull().defaultTo("any"))
    .addColumn("amenities", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("userEmail", "text", (c) => c.notNull())
    .addColumn("contactName", "text", (c) => c.notNull().defaultTo("Contact Owner"))
    .addColumn("contactPhone", "text", (c) => c.notNull().defaultTo("Not provided"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("uniqueViews", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lastViewed", "text")
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .addColumn("hiddenReason", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  if (pg) {
    await sql`alter table listings alter column id restart with 1001`.execute(db);
  } else {
    await sql`insert into sqlite_sequence (name, seq) values ('listings', 1000)`.execute(db);
  }
  await db.schema.createIndex("listings_status_created_idx").on("listings").columns(["status", "createdAt"]).execute();
  await db.schema.createIndex("listings_status_price_idx").on("listings").columns(["status", "price"]).execute();
  await db.schema.createIndex("listings_university_idx").on("listings").columns(["university", "createdAt"]).execute();
  await db.schema.createIndex("listings_city_idx").on("listings").columns(["city", "createdAt"]).execute();
  await db.schema.createIndex("listings_user_idx").on("listings").column("userId").execute();
  await db.schema.createIndex("listings_expires_idx").on("listings").column("expiresAt").execute();

  // Full-text search over title, description, location, university, faculty.
  if (pg) {
    await sql`alter table listings add column "searchVector" tsvector generated always as (
      to_tsvector('simple'::regconfig,
        coalesce(title, '') || ' ' || coalesce(description, '') || ' ' || coalesce(location, '') || ' ' ||
        coalesce(university, '') || ' ' || coalesce(faculty, ''))
    ) stored`.execute(db);
    await sql`create index listings_search_idx on listings using gin ("searchVector")`.execute(db);
  } else {
    await sql`create virtual table listings_fts using fts5(
      title, description, location, university, faculty,
      content='listings', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3 4')`.execute(db);
    await sql`create trigger listings_fts_insert after insert on listings begin
      insert into listings_fts(rowid, title, description, location, university, faculty)
      values (new.id, new.title, new.description, coalesce(new.location, ''), new.university, new.faculty);
    end`.execute(db);
    await sql`create trigger listings_fts_delete after delete on listings begin
      insert into listings_fts(listings_fts, rowid, title, description, location, university, faculty)
      values ('delete', old.id, old.title, old.description, coalesce(old.location, ''), old.university, old.faculty);
    end`.execute(db);
    await sql`create trigger listings_fts_update after update of title, description, location, university, faculty on listings begin
      insert into listings_fts(listings_fts, rowid, title, description, location, university, faculty)
      values ('delete', old.id, old.title, old.description, coalesce(old.location, ''), old.university, old.faculty);
      insert into listings_fts(rowid, title, description, location, university, faculty)
      values (new.id, new.title, new.description, coalesce(new.location, ''), new.university, new.faculty);
    end`.execute(db);
  }

  await db.schema
    .createTable("listing_photos")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("listingId", "integer", (c) => c.references("listings.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("variants", "text", (c) => c.notNull())
    .addColumn("alt", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("listing_photos_listing_idx")
    .on("listing_photos")
    .columns(["listingId", "position"])
    .execute();
  await db.schema
    .createIndex("listing_photos_user_idx")
    .on("listing_photos")
    .columns(["userId", "createdAt"])
    .execute();

  await db.schema
    .createTable("listing_views")
    .addColumn("listingId", "integer", (c) => c.notNull().references("listings.id").onDelete("cascade"))
    .addColumn("sessionKey", "text", (c) => c.notNull())
    .addColumn("visitorKey", "text", (c) => c.notNull())
    .addColumn("viewedAt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("listing_views_pk", ["listingId", "sessionKey"])
    .execute();
  await db.schema
    .createIndex("listing_views_visitor_idx")
    .on("listing_views")
    .columns(["listingId", "visitorKey"])
    .execute();

  await db.schema
    .createTable("reports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("listingId", "integer", (c) => c.notNull().references("listings.id").onDelete("cascade"))
    .addColumn("reporterName", "text", (c) => c.notNull())
    .addColumn("reporterEmail", "text", (c) => c.notNull())
    .addColumn("reporterContact", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("reports_listing_idx").on("reports").columns(["listingId", "createdAt"]).execute();
  await db.schema.createIndex("reports_status_idx").on("reports").columns(["status", "createdAt"]).execute();

  await db.schema
    .createTable("contact_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("new"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["contact_messages", "reports", "listing_views", "listing_photos"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  if (!isPostgres(db)) await sql`drop table if exists listings_fts`.execute(db);
  for (const table of ["listings", "verifications", "sessions", "accounts", "users"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
