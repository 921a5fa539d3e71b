import * as z from "zod";
import { CITIES } from "~/directory/universities";
import {
  API_DEFAULT_LIMIT,
  API_MAX_LIMIT,
  CONFIRMED_OPTIONS,
  GENDERS,
  LIST_QUERY_BOUNDS,
  type ListQueryParam,
  PHONE_CONFIRMED,
  PROPERTY_TYPES,
  SORTS,
  WITHIN_OPTIONS,
} from "~/schemas/browse-filters";
import {
  FACT_FILTER_PARAMS,
  FACT_FILTER_VALUES,
  type FactFilterParam,
  FREE_BEDS_OPTIONS,
} from "~/schemas/listing-facts";
import {
  CitySchema,
  ErrorSchema,
  FacultySchema,
  ListingChecksSchema,
  ListingDetailExtraSchema,
  ListingInsightsSchema,
  ListingPageSchema,
  ListingPhotoSchema,
  ListingSummarySchema,
  PaginationSchema,
  UniversityDirectorySchema,
  UniversitySchema,
  ViewStatsSchema,
} from "./api-schemas";

/** References to the components below, and the shapes the paths share. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });
export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});
export const jsonContent = (schema: unknown) => ({ "application/json": { schema } });

const text = (description: string) => ({ type: "string", maxLength: LIST_QUERY_BOUNDS.text, description });
const wholeNumber = (maximum: number) => ({ type: "integer", minimum: 0, maximum });

/** A query parameter of the list API: every one the parser reads is documented (the compiler checks the keys). */
type QueryParameter = { name: string; in: "query"; description?: string; schema: Record<string, unknown> };

type JsonSchema = Record<string, unknown>;

/**
 * What zod writes that the document does not want: each schema's `$schema`
 * and `$id` (the document's `openapi` version says the dialect), the bounds of
 * a safe integer on every `z.int()`, and `additionalProperties: false`, which
 * would make `ListingDetail`'s `allOf` refuse the fields it adds and clients
 * refuse a field added later. The tests parse real answers with the strict
 * zod schemas instead (tests/integration/api.test.ts).
 */
function tidy(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  if (rest.additionalProperties === false) delete rest.additionalProperties;
  if (rest.type === "integer") {
    if (rest.maximum === Number.MAX_SAFE_INTEGER) delete rest.maximum;
    if (rest.minimum === Number.MIN_SAFE_INTEGER) delete rest.minimum;
  }
  for (const [key, value] of Object.entries(rest)) {
    if (Array.isArray(value)) rest[key] = value.map((v) => (v && typeof v === "object" ? tidy(v as JsonSchema) : v));
    else if (value && typeof value === "object" && key !== "examples") rest[key] = tidy(value as JsonSchema);
  }
  return rest;
}

/** Every generated component is a `z.object`: it has properties and the required ones. */
type ObjectSchema = JsonSchema & { properties: Record<string, JsonSchema>; required: string[] };

/** The JSON shapes, generated from the zod schemas of app/api/api-schemas.ts. */
function generatedSchemas(): Record<string, JsonSchema> & {
  ListingSummary: ObjectSchema;
  Pagination: ObjectSchema;
  ListingDetail: { allOf: JsonSchema[] };
} {
  const named = z.registry<{ id: string }>();
  const components = {
    Error: ErrorSchema,
    Pagination: PaginationSchema,
    ListingPage: ListingPageSchema,
    ListingPhoto: ListingPhotoSchema,
    ListingChecks: ListingChecksSchema,
    ListingSummary: ListingSummarySchema,
    ViewStats: ViewStatsSchema,
    ListingInsights: ListingInsightsSchema,
    City: CitySchema,
    Faculty: FacultySchema,
    University: UniversitySchema,
    UniversityDirectory: UniversityDirectorySchema,
  };
  for (const [id, schema] of Object.entries(components)) named.add(schema, { id });
  const { schemas } = z.toJSONSchema(named, { uri: (id) => `#/components/schemas/${id}` });
  const generated: Record<string, ObjectSchema> = Object.fromEntries(
    Object.entries(schemas).map(([id, s]) => [id, tidy(s as JsonSchema) as ObjectSchema]),
  );
  return {
    ...generated,
    ListingSummary: generated.ListingSummary,
    Pagination: generated.Pagination,
    ListingDetail: { allOf: [ref("ListingSummary"), tidy(z.toJSONSchema(ListingDetailExtraSchema) as JsonSchema)] },
  };
}

/** One parameter per fact filter (ADR 051), each taking the one value its box sends. */
function factParameters(): Record<FactFilterParam, QueryParameter> {
  const parameters = {} as Record<FactFilterParam, QueryParameter>;
  for (const param of FACT_FILTER_PARAMS) {
    parameters[param] = {
      name: param,
      in: "query",
      description: `Only listings whose owner states \`${param}\` = \`${FACT_FILTER_VALUES[param]}\` (the one value it takes).`,
      schema: { type: "string", enum: [FACT_FILTER_VALUES[param]] },
    };
  }
  return parameters;
}

/** The list API's query parameters; every one the parser reads (LIST_QUERY_PARAMS) is here, checked by the compiler. */
const LIST_PARAMETERS = {
  university: {
    name: "university",
    in: "query",
    description: "University id, short name or full name (resolved to the directory's full name).",
    schema: text("University"),
  },
  faculty: { name: "faculty", in: "query", description: "Faculty name or id.", schema: text("Faculty") },
  location: {
    name: "location",
    in: "query",
    description: "Case-insensitive substring of the listing's location, or a city it names.",
    schema: text("Location"),
  },
  city: {
    name: "city",
    in: "query",
    description: "City code or name.",
    schema: { type: "string", examples: CITIES.map((c) => c.code) },
  },
  minPrice: {
    name: "minPrice",
    in: "query",
    description: "Lowest monthly rent in LKR.",
    schema: wholeNumber(LIST_QUERY_BOUNDS.price),
  },
  maxPrice: {
    name: "maxPrice",
    in: "query",
    description: "Highest monthly rent in LKR.",
    schema: wholeNumber(LIST_QUERY_BOUNDS.price),
  },
  maxMoveIn: {
    name: "maxMoveIn",
    in: "query",
    description:
      "Highest move-in cost in LKR (key money + deposit + the advance months' rent). Listings that do not state their advance never match.",
    schema: wholeNumber(LIST_QUERY_BOUNDS.moveIn),
  },
  within: {
    name: "within",
    in: "query",
    description:
      "Only listings within this many km (straight line) of the chosen faculty, or of the university's main campus when no faculty is given. Needs `university`. A listing without a position of its own counts from its city's centre.",
    schema: { type: "integer", enum: [...WITHIN_OPTIONS] },
  },
  ...factParameters(),
  freeBeds: {
    name: "freeBeds",
    in: "query",
    description: "Only listings with at least this many beds free (shared rooms and hostels that state it).",
    schema: { type: "integer", enum: [...FREE_BEDS_OPTIONS] },
  },
  confirmed: {
    name: "confirmed",
    in: "query",
    description:
      "Only listings whose owner confirmed in the last this many days that they are available (posting and renewing count).",
    schema: { type: "integer", enum: [...CONFIRMED_OPTIONS] },
  },
  phone: {
    name: "phone",
    in: "query",
    description:
      "`confirmed`: only listings whose owner confirmed the ad's phone number by SMS in the last 180 days. Ignored while the site sends no SMS.",
    schema: { type: "string", enum: [PHONE_CONFIRMED] },
  },
  propertyType: {
    name: "propertyType",
    in: "query",
    description: "`all` is the same as leaving it out.",
    schema: { type: "string", enum: [...PROPERTY_TYPES, "all"] },
  },
  gender: {
    name: "gender",
    in: "query",
    description: "Listings for this gender and for any gender. `any` is the same as leaving it out.",
    schema: { type: "string", enum: GENDERS },
  },
  search: {
    name: "search",
    in: "query",
    description: "Words that must all appear (as prefixes) in the title, description, location or university.",
    schema: text("Search text"),
  },
  q: {
    name: "q",
    in: "query",
    description: "Same as `search` (site-search template).",
    schema: text("Search text"),
  },
  sort: {
    name: "sort",
    in: "query",
    description:
      "Default: `relevance` with search text, otherwise `newest`. `nearest` orders by distance to the chosen faculty (or the main campus) and needs `university`.",
    schema: { type: "string", enum: SORTS },
  },
  page: {
    name: "page",
    in: "query",
    schema: { type: "integer", minimum: 1, maximum: LIST_QUERY_BOUNDS.page, default: 1 },
  },
  limit: {
    name: "limit",
    in: "query",
    schema: { type: "integer", minimum: 1, maximum: API_MAX_LIMIT, default: API_DEFAULT_LIMIT },
  },
} satisfies Record<ListQueryParam, QueryParameter>;

/**
 * The OpenAPI document's reusable parts (app/api/openapi.ts): the query
 * parameters, shared responses and the JSON shapes of listings, errors and the
 * directory. Enumerations come from the constants the server validates with.
 */
export const OPENAPI_COMPONENTS = {
  parameters: LIST_PARAMETERS,
  responses: {
    MethodNotAllowed: {
      description: "Only GET (and HEAD) are allowed; the Allow header says so.",
      headers: { Allow: { schema: { type: "string", examples: ["GET, HEAD"] } } },
      content: jsonContent(ref("Error")),
    },
  },
  schemas: generatedSchemas(),
  securitySchemes: {
    session: {
      type: "apiKey",
      in: "cookie",
      // SESSION_COOKIE_NAME (app/auth/session-cookie.ts), which this layer may not import: a test holds them equal.
      name: "bodima.session_token",
      description: "The session cookie of a signed-in owner (sign in on the site).",
    },
  },
};
