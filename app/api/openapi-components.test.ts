import { describe, expect, it } from "vitest";
import { LIST_QUERY_PARAMS } from "~/schemas/browse-filters";
import { parseListQuery } from "./list-query";
import { OPENAPI_COMPONENTS } from "./openapi-components";

type Schema = { type?: string; enum?: readonly (string | number)[]; minimum?: number; maximum?: number };
const parameters = OPENAPI_COMPONENTS.parameters as Record<string, { name: string; schema: Schema }>;

/** `within` and `sort=nearest` measure from a university, so every probe names one. */
const accepts = (name: string, value: string | number) =>
  parseListQuery(new URLSearchParams({ university: "University of Moratuwa", [name]: String(value) })).ok;

// The document states what the parser enforces: a client that keeps to the document is never refused,
// and a value the document rules out is refused (never silently read as something else).
describe("the OpenAPI document's list parameters", () => {
  it("documents exactly the parameters the list API reads", () => {
    expect(
      Object.values(parameters)
        .map((p) => p.name)
        .sort(),
    ).toEqual([...LIST_QUERY_PARAMS].sort());
  });

  it.each(Object.values(parameters).filter((p) => p.schema.enum))(
    "$name: every documented value is accepted and others refused",
    ({ name, schema }) => {
      for (const value of schema.enum ?? [])
        expect({ name, value, ok: accepts(name, value) }).toMatchObject({ ok: true });
      expect(accepts(name, "not-a-documented-value")).toBe(false);
    },
  );

  it.each(Object.values(parameters).filter((p) => p.schema.type === "integer" && !p.schema.enum))(
    "$name: the documented bounds are the parser's",
    ({ name, schema }) => {
      expect(schema.minimum).toBeDefined();
      expect(schema.maximum).toBeDefined();
      expect(accepts(name, schema.minimum!)).toBe(true);
      expect(accepts(name, schema.maximum!)).toBe(true);
      expect(accepts(name, schema.maximum! + 1)).toBe(false);
      expect(accepts(name, schema.minimum! - 1)).toBe(false);
      expect(accepts(name, "1.5")).toBe(false);
    },
  );
});
