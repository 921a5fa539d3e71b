import { browse } from "./browse";
import { common } from "./common";
import { home } from "./home";
import { info } from "./info";
import { listing } from "./listing";
import { oldBrowse } from "./old-browse";

/** The English catalogue: one module per area, merged here. */
export const en = {
  common,
  home,
  browse,
  listing,
  info,
  oldBrowse,
};
