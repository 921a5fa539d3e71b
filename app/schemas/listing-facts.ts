/**
 * The facts students ask first (ADR 051): bills, meals, bathroom,
 * beds, curfew, visitors and cooking. Each is null until the owner states it
 * ('not stated'), never a guessed value.
 */
export const BILLS = ["included", "meter", "shared"] as const;
export const MEALS = ["none", "available", "included"] as const;
export const BATHROOMS = ["attached", "shared"] as const;
export const RULES = ["allowed", "not_allowed"] as const;
/** Curfew choices: no curfew, or the time the gate closes, every half hour from 7 pm to 11:30 pm. */
export const CURFEWS = [
  "none",
  ...Array.from({ length: 10 }, (_, i) => `${String(19 + Math.floor(i / 2))}:${i % 2 ? "30" : "00"}`),
] as const;
/** Beds are asked of shared rooms and hostels only. */
export const BED_TYPES: readonly string[] = ["shared", "hostel"];
export const MAX_BEDS = 200;

export type Bills = (typeof BILLS)[number];
export type Meals = (typeof MEALS)[number];
export type Bathroom = (typeof BATHROOMS)[number];
export type Rule = (typeof RULES)[number];

export type ListingFacts = {
  bills: Bills | null;
  meals: Meals | null;
  bathroom: Bathroom | null;
  /** Shared rooms and hostels: beds free now and beds in all; null otherwise or not stated. */
  bedsFree: number | null;
  bedsTotal: number | null;
  /** 'none', or the time the gate closes ('22:00'); null: not stated. */
  curfew: string | null;
  visitors: Rule | null;
  cooking: Rule | null;
};

/** The form's fields for the facts, in the order it shows them. */
export const FACT_FIELDS = [
  "bills",
  "meals",
  "bathroom",
  "bedsFree",
  "bedsTotal",
  "curfew",
  "visitors",
  "cooking",
] as const;
export type FactField = (typeof FACT_FIELDS)[number];

/** The browse filters on facts: each is one value a student ticks (ADR 051). */
export type FactFilters = {
  bills?: "included";
  meals?: "included";
  bathroom?: "attached";
  cooking?: "allowed";
  visitors?: "allowed";
  curfew?: "none";
  /** At least this many beds free (1 to MAX_FREE_BEDS_FILTER). */
  freeBeds?: number;
};
/** The ticked value of each yes/no fact filter: the only value its parameter takes. */
export const FACT_FILTER_VALUES = {
  bills: "included",
  meals: "included",
  bathroom: "attached",
  cooking: "allowed",
  visitors: "allowed",
  curfew: "none",
} as const;
export type FactFilterParam = keyof typeof FACT_FILTER_VALUES;
export const FACT_FILTER_PARAMS = Object.keys(FACT_FILTER_VALUES) as FactFilterParam[];
/** 'Free beds' choices: 1+ to 4+ (a group of friends moving in together). */
export const FREE_BEDS_OPTIONS = [1, 2, 3, 4] as const;

/** Every fact 'not stated': what an owner who skips them, and every listing before them, has. */
export const NOT_STATED_FACTS = Object.freeze(
  Object.fromEntries(FACT_FIELDS.map((field) => [field, null])) as ListingFacts,
);
