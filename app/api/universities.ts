import { CITIES, DIRECTORY_META, UNIVERSITIES } from "~/directory/universities";

/** GET /api/universities: the directory in the shape SPEC.md section 3 describes, plus city codes. */
export function universityDirectory() {
  return {
    universities: UNIVERSITIES,
    version: DIRECTORY_META.version,
    lastUpdated: DIRECTORY_META.lastUpdated,
    cities: CITIES,
  };
}
