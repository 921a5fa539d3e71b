export const listing = {};
