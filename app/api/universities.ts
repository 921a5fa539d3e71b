import { CITIES, DIRECTORY_META, UNIVERSITIES } from "~/directory/universities";

/** GET /api/universities: the directory in the shape the product specification describes, plus city codes. */
export function universityDirectory() {
  return {
    universities: UNIVERSITIES,
    version: DIRECTORY_META.version,
    lastUpdated: DIRECTORY_META.lastUpdated,
    cities: CITIES,
  };
}
