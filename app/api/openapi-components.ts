import { CITIES, DIRECTORY_META } from "~/directory/universities";
import {
  AMENITIES,
  API_DEFAULT_LIMIT,
  API_MAX_LIMIT,
  CONFIRMED_OPTIONS,
  GENDERS,
  PROPERTY_TYPES,
  SORTS,
  WITHIN_OPTIONS,
} from "~/schemas/browse-filters";
import {
  BATHROOMS,
  BILLS,
  FACT_FIELDS,
  FACT_FILTER_PARAMS,
  FACT_FILTER_VALUES,
  FREE_BEDS_OPTIONS,
  MEALS,
  RULES,
} from "~/schemas/listing-facts";
import { PUBLIC_PAGE_STATUSES } from "~/schemas/listing-status";

/** References to the components below, and the shapes the paths share. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });
export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});
export const jsonContent = (schema: unknown) => ({ "application/json": { schema } });

const text = (description: string) => ({ type: "string", maxLength: 200, description });
const nullable = (type: string) => ({ type: [type, "null"] });

/**
 * The OpenAPI document's reusable parts (app/api/openapi.ts): the query
 * parameters, shared responses and the JSON shapes of listings, errors and the
 * directory. Enumerations come from the constants the server validates with.
 */
export const OPENAPI_COMPONENTS = {
  parameters: {
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
      schema: { type: "integer", minimum: 0 },
    },
    maxPrice: {
      name: "maxPrice",
      in: "query",
      description: "Highest monthly rent in LKR.",
      schema: { type: "integer", minimum: 0 },
    },
    maxMoveIn: {
      name: "maxMoveIn",
      in: "query",
      description:
        "Highest move-in cost in LKR (key money + deposit + the advance months' rent). Listings that do not state their advance never match.",
      schema: { type: "integer", minimum: 0 },
    },
    within: {
      name: "within",
      in: "query",
      description:
        "Only listings within this many km (straight line) of the chosen faculty, or of the university's main campus when no faculty is given. Needs `university`. A listing without a position of its own counts from its city's centre.",
      schema: { type: "integer", enum: [...WITHIN_OPTIONS] },
    },
    ...Object.fromEntries(
      FACT_FILTER_PARAMS.map((param) => [
        param,
        {
          name: param,
          in: "query",
          description: `Only listings whose owner states \`${param}\` = \`${FACT_FILTER_VALUES[param]}\` (the one value it takes).`,
          schema: { type: "string", enum: [FACT_FILTER_VALUES[param]] },
        },
      ]),
    ),
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
    page: { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
    limit: {
      name: "limit",
      in: "query",
      schema: { type: "integer", minimum: 1, maximum: API_MAX_LIMIT, default: API_DEFAULT_LIMIT },
    },
  },
  responses: {
    MethodNotAllowed: {
      description: "Only GET (and HEAD) are allowed; the Allow header says so.",
      headers: { Allow: { schema: { type: "string", examples: ["GET, HEAD"] } } },
      content: jsonContent(ref("Error")),
    },
  },
  schemas: {
    Error: {
      type: "object",
      required: ["error"],
      properties: {
        error: { type: "string", description: "A sentence saying what went wrong." },
        details: {
          type: "array",
          items: {
            type: "object",
            required: ["param", "message"],
            properties: { param: { type: "string" }, message: { type: "string" } },
          },
        },
      },
    },
    Pagination: {
      type: "object",
      required: ["page", "limit", "total", "totalPages", "hasNext", "hasPrev", "totalIsExact"],
      properties: {
        page: { type: "integer", minimum: 1 },
        limit: { type: "integer", minimum: 1, maximum: API_MAX_LIMIT },
        total: {
          type: "integer",
          minimum: 0,
          description:
            "The number of matches, or when totalIsExact is false a lower bound (10,000; 1,000 with a search or a location): there are more.",
        },
        totalPages: {
          type: "integer",
          minimum: 0,
          description: "Pages that can be fetched; past the bound they reach its first `total` matches.",
        },
        hasNext: { type: "boolean" },
        hasPrev: { type: "boolean" },
        totalIsExact: { type: "boolean", description: "False when counting stopped at the bound." },
      },
    },
    ListingPage: {
      type: "object",
      required: ["ads", "pagination"],
      properties: { ads: { type: "array", items: ref("ListingSummary") }, pagination: ref("Pagination") },
    },
    ListingPhoto: {
      type: "object",
      required: ["id", "alt", "width", "height", "url", "srcSet", "variants"],
      properties: {
        id: { type: "string" },
        alt: { type: "string" },
        width: { type: "integer" },
        height: { type: "integer" },
        url: { type: "string", description: "The largest WebP variant (site-relative)." },
        srcSet: { type: "string" },
        variants: {
          type: "array",
          items: {
            type: "object",
            required: ["url", "width", "height"],
            properties: { url: { type: "string" }, width: { type: "integer" }, height: { type: "integer" } },
          },
        },
      },
    },
    ListingSummary: {
      type: "object",
      description: "A listing as cards show it. No phone number.",
      required: [
        "id",
        "adNumber",
        "slug",
        "title",
        "description",
        "price",
        "keymoneyFee",
        "advanceMonths",
        "deposit",
        "moveInCost",
        "location",
        "latitude",
        "longitude",
        ...FACT_FIELDS,
        "university",
        "faculty",
        "city",
        "cityName",
        "propertyType",
        "gender",
        "amenities",
        "images",
        "photos",
        "status",
        "views",
        "createdAt",
        "updatedAt",
        "expiresAt",
        "availabilityUnconfirmed",
      ],
      properties: {
        id: { type: "string" },
        adNumber: { type: "string", description: "Sequential; the first is 1001." },
        slug: { type: "string" },
        title: { type: "string" },
        description: { type: "string" },
        price: { type: "integer", description: "Monthly rent in LKR." },
        keymoneyFee: { ...nullable("integer"), description: "One-time key money in LKR." },
        advanceMonths: {
          ...nullable("integer"),
          minimum: 0,
          maximum: 12,
          description: "Months of rent asked in advance; null when the owner has not said.",
        },
        deposit: { ...nullable("integer"), description: "A refundable deposit in LKR; null when none is stated." },
        moveInCost: {
          ...nullable("integer"),
          description:
            "What moving in costs in LKR: key money + deposit + the advance months' rent; null while the advance is not stated.",
        },
        location: { ...nullable("string"), description: "Free text or a maps link." },
        latitude: {
          ...nullable("number"),
          description: "Where the place is, rounded to about 100 m; null when the owner gave no position.",
        },
        longitude: { ...nullable("number"), description: "See latitude." },
        // The facts students ask first (issue 12, ADR 051): null means the owner has not said.
        bills: { type: ["string", "null"], enum: [...BILLS, null], description: "Electricity and water bills." },
        meals: { type: ["string", "null"], enum: [...MEALS, null], description: "`available` costs extra." },
        bathroom: { type: ["string", "null"], enum: [...BATHROOMS, null] },
        bedsFree: {
          ...nullable("integer"),
          minimum: 0,
          description: "Beds free now (shared rooms and hostels; null otherwise or when not stated).",
        },
        bedsTotal: { ...nullable("integer"), minimum: 0, description: "Beds in all (see bedsFree)." },
        curfew: {
          ...nullable("string"),
          description: "`none`, or the time the gate closes, `HH:MM` (24-hour, Sri Lanka time).",
          examples: ["none", "22:00"],
        },
        visitors: { type: ["string", "null"], enum: [...RULES, null] },
        cooking: { type: ["string", "null"], enum: [...RULES, null] },
        university: { type: "string" },
        faculty: { type: "string", default: "Main Campus" },
        city: { type: "string", description: "City code." },
        cityName: { type: "string" },
        propertyType: { type: "string", enum: PROPERTY_TYPES },
        gender: { type: "string", enum: GENDERS },
        amenities: { type: "array", items: { type: "string", examples: [...AMENITIES] } },
        images: { type: "array", items: { type: "string" }, description: "Photo URLs (site-relative)." },
        photos: { type: "array", items: ref("ListingPhoto") },
        status: {
          type: "string",
          // The states whose page and API entry the public sees (ADR 063).
          enum: [...PUBLIC_PAGE_STATUSES],
          description: "'let': its owner said it is no longer available (only one ad by its number or slug).",
        },
        views: { type: "integer" },
        createdAt: { type: "string", format: "date-time" },
        updatedAt: { type: "string", format: "date-time" },
        expiresAt: { type: "string", format: "date-time" },
        availabilityUnconfirmed: {
          type: "boolean",
          description:
            "Students said it may already be let, and its owner has not confirmed since: it comes after the other matches.",
        },
      },
    },
    ListingDetail: {
      allOf: [
        ref("ListingSummary"),
        {
          type: "object",
          required: ["contactName", "contactPhone", "uniqueViews", "lastViewed", "isExpired", "isLet", "isPublic"],
          properties: {
            contactName: { type: "string" },
            contactPhone: { type: "string" },
            uniqueViews: { type: "integer" },
            lastViewed: { ...nullable("string"), format: "date-time" },
            isExpired: { type: "boolean" },
            isLet: { type: "boolean", description: "Its owner said it is no longer available." },
            isPublic: { type: "boolean", description: "Active and not expired." },
          },
        },
      ],
    },
    ViewStats: {
      type: "object",
      required: ["adId", "totalViews", "uniqueViews", "lastViewed", "counted"],
      properties: {
        adId: { type: "string" },
        totalViews: { type: "integer" },
        uniqueViews: { type: "integer" },
        lastViewed: { ...nullable("string"), format: "date-time" },
        counted: { type: "boolean" },
      },
    },
    City: {
      type: "object",
      required: ["code", "name", "latitude", "longitude"],
      properties: {
        code: { type: "string" },
        name: { type: "string" },
        latitude: { type: "number", description: "The town centre, for listings without a position of their own." },
        longitude: { type: "number" },
      },
    },
    Faculty: {
      type: "object",
      required: ["id", "name", "city", "cityCode", "isMainCampus", "latitude", "longitude"],
      properties: {
        id: { type: "string" },
        name: { type: "string" },
        city: { type: "string" },
        cityCode: { type: "string" },
        isMainCampus: { type: "boolean" },
        latitude: { type: "number" },
        longitude: { type: "number" },
      },
    },
    University: {
      type: "object",
      required: [
        "id",
        "name",
        "shortName",
        "city",
        "district",
        "province",
        "type",
        "isActive",
        "faculties",
        "campuses",
        "latitude",
        "longitude",
      ],
      properties: {
        id: { type: "string" },
        name: { type: "string" },
        shortName: { type: "string" },
        city: { type: "string", description: "City code of the main campus." },
        district: { type: "string" },
        province: { type: "string" },
        type: { type: "string", enum: ["public", "private", "defense", "technical"] },
        isActive: { type: "boolean" },
        faculties: { type: "array", items: ref("Faculty") },
        campuses: { type: "array", items: ref("Faculty") },
        latitude: { type: "number" },
        longitude: { type: "number" },
      },
    },
    UniversityDirectory: {
      type: "object",
      required: ["universities", "version", "lastUpdated", "cities"],
      properties: {
        universities: { type: "array", items: ref("University") },
        version: { type: "string", const: DIRECTORY_META.version },
        lastUpdated: { type: "string", format: "date" },
        cities: { type: "array", items: ref("City") },
      },
    },
  },
};
