/** The home and about pages' figures (app/pages/site-figures.server.ts counts them). */
export type SiteFigures = { listingCount: number; universitiesWithListings: number; universitiesSupported: number };
