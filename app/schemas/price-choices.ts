/**
 * The 'Max price' choices in LKR, on their own so the home page's search form
 * takes them without the browse filters' schema and the directory it imports
 * (the 120 KB first-load budget, tests/e2e/budgets.spec.ts).
 */
export const MAX_PRICE_OPTIONS = [10000, 15000, 20000, 25000, 30000, 50000] as const;
