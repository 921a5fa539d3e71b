import { browse } from "./browse";
import { common } from "./common";
import { home } from "./home";
import { info } from "./info";
import { listing } from "./listing";

/** The English catalogue: one module per area, merged here. */
export const en = {
  common,
  home,
  browse,
  listing,
  info,
};
