export const info = {};
