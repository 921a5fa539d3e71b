export const browse = {};
