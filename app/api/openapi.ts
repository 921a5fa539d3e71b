import { LIST_QUERY_PARAMS } from "~/schemas/browse-filters";
import { errorResponse, jsonContent, OPENAPI_COMPONENTS, param, ref } from "./openapi-components";

const listParameters = LIST_QUERY_PARAMS.map(param);

const cacheHeader = {
  "Cache-Control": { description: "public, max-age=60", schema: { type: "string" } },
};

const listResponses = {
  "200": {
    description: "One page of public listings (active and not expired), newest first unless sorted.",
    headers: cacheHeader,
    content: jsonContent(ref("ListingPage")),
  },
  "400": errorResponse("A query parameter is invalid; `details` names each one."),
  "405": { $ref: "#/components/responses/MethodNotAllowed" },
};

const detailResponses = {
  "200": {
    description: "The listing. Expired listings are returned with `isExpired: true`.",
    headers: cacheHeader,
    content: jsonContent({ type: "object", required: ["ad"], properties: { ad: ref("ListingDetail") } }),
  },
  "404": {
    description: "No public or expired listing has this ad number or slug.",
    content: jsonContent({ ...ref("Error"), examples: [{ error: "Ad not found" }] }),
  },
  "405": { $ref: "#/components/responses/MethodNotAllowed" },
};

const idOrSlugParameter = {
  name: "idOrSlug",
  in: "path",
  required: true,
  description: "The ad number (e.g. 1001) or the slug (e.g. single-room-near-moratuwa-1001).",
  schema: { type: "string", maxLength: 200 },
};

/**
 * The OpenAPI 3.1 description of every JSON endpoint, served at
 * /api/openapi.json. Enumerations come from the same constants the server
 * validates with, so the document cannot drift from them.
 */
export function openApiDocument(siteUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Bodima API",
      version: "1.0.0",
      summary: "Read-only access to boarding-place listings near Sri Lankan universities.",
      description:
        "Public, read-only JSON, no authentication, except an owner's own figures under /api/my (the site's session cookie). " +
        "List responses never contain phone numbers. " +
        "The /getAdsForSEO, /getAdForSEO and /getAdsByUniversity paths are kept for clients of the original backend.",
    },
    servers: [{ url: siteUrl }],
    paths: {
      "/api/listings": {
        get: {
          operationId: "listListings",
          summary: "Search and page through public listings",
          parameters: listParameters,
          responses: listResponses,
        },
      },
      "/api/listings/{idOrSlug}": {
        get: {
          operationId: "getListing",
          summary: "One listing by ad number or slug",
          parameters: [idOrSlugParameter],
          responses: detailResponses,
        },
      },
      "/api/universities": {
        get: {
          operationId: "listUniversities",
          summary: "The university directory with faculties, coordinates and city codes",
          responses: {
            "200": {
              description: "The directory.",
              content: jsonContent(ref("UniversityDirectory")),
            },
            "405": { $ref: "#/components/responses/MethodNotAllowed" },
          },
        },
      },
      "/api/my/listings/{id}/insights": {
        get: {
          operationId: "getMyListingInsights",
          summary: "Your own ad's views, saves, calls and messages per day, the last 30 days",
          security: [{ session: [] }],
          parameters: [
            {
              name: "id",
              in: "path",
              required: true,
              description: "The ad number of one of your ads.",
              schema: { type: "integer", minimum: 1 },
            },
          ],
          responses: {
            "200": {
              description: "The ad's figures per day in Sri Lanka's time zone. Never cached.",
              content: jsonContent(ref("ListingInsights")),
            },
            "404": {
              description:
                "No ad of yours has this number: signed out, another owner's ad, a suspended account or no such ad all answer alike.",
              content: jsonContent({ ...ref("Error"), examples: [{ error: "Ad not found" }] }),
            },
            "405": { $ref: "#/components/responses/MethodNotAllowed" },
          },
        },
      },
      "/api/openapi.json": {
        get: {
          operationId: "getOpenApiDocument",
          summary: "This document",
          responses: { "200": { description: "OpenAPI 3.1 document.", content: jsonContent({ type: "object" }) } },
        },
      },
      "/getAdsForSEO": {
        get: {
          operationId: "getAdsForSEO",
          summary: "Compatible alias of GET /api/listings",
          parameters: listParameters,
          responses: listResponses,
        },
      },
      "/getAdForSEO/{idOrSlug}": {
        get: {
          operationId: "getAdForSEO",
          summary: "Compatible alias of GET /api/listings/{idOrSlug}",
          parameters: [idOrSlugParameter],
          responses: detailResponses,
        },
      },
      "/getAdsByUniversity/{university}": {
        get: {
          operationId: "getAdsByUniversity",
          summary: "Listings near one university (other list filters may be added)",
          parameters: [
            {
              name: "university",
              in: "path",
              required: true,
              description: "University id, short name or full name, e.g. UOM or university-of-moratuwa.",
              schema: { type: "string", maxLength: 200 },
            },
            ...listParameters.filter((p) => p.$ref !== "#/components/parameters/university"),
          ],
          responses: listResponses,
        },
      },
      "/updateViewCount": {
        post: {
          operationId: "updateViewCount",
          summary: "Count a view of a listing (once per browser session, like the listing page)",
          requestBody: {
            required: true,
            content: jsonContent({
              type: "object",
              required: ["adId"],
              properties: { adId: { type: ["string", "integer"], description: "The ad number or the slug." } },
            }),
          },
          responses: {
            "200": {
              description: "The listing's view counts; `counted` is false when this session had already been counted.",
              content: jsonContent(ref("ViewStats")),
            },
            "400": errorResponse("adId is missing or malformed ('Ad ID is required')."),
            "404": errorResponse("No such listing ('Ad not found')."),
            "405": errorResponse("Only POST is allowed."),
            "415": errorResponse("The body must be JSON (Content-Type: application/json)."),
          },
        },
      },
    },
    components: OPENAPI_COMPONENTS,
  };
}
