/**
 * University directory.
 *
 * Plain typed data plus pure lookup helpers. No imports from the rest of the
 * app so it can be used on the server, in the browser and in tests alike.
 *
 * Coordinates are in decimal degrees (WGS 84), rounded to 4 places (about 11 m):
 * approximate campus locations for faculties, town centres for cities.
 */

export type UniversityType = "public" | "private" | "defense" | "technical";

export type City = {
  readonly code: string;
  readonly name: string;
  /** The town centre (its main junction, bus stand or railway station), for listings without a position of their own. */
  readonly latitude: number;
  /** Longitude of the same town centre. */
  readonly longitude: number;
};

export type Faculty = {
  readonly id: string;
  readonly name: string;
  /** Human display name of the faculty's location. */
  readonly city: string;
  /** One of the codes in `CITIES`. */
  readonly cityCode: string;
  readonly isMainCampus: boolean;
  readonly latitude: number;
  readonly longitude: number;
};

export type University = {
  readonly id: string;
  readonly name: string;
  readonly shortName: string;
  /** City code (one of `CITIES`) of the main campus. */
  readonly city: string;
  readonly district: string;
  readonly province: string;
  readonly type: UniversityType;
  readonly isActive: boolean;
  readonly faculties: readonly Faculty[];
  /** Reserved by the spec; always empty for now. */
  readonly campuses: readonly Faculty[];
  /** Main campus latitude. */
  readonly latitude: number;
  /** Main campus longitude. */
  readonly longitude: number;
};

export type DirectoryMeta = {
  readonly version: string;
  readonly lastUpdated: string;
};

export const DIRECTORY_META: DirectoryMeta = Object.freeze({
  version: "1.0.0",
  lastUpdated: "2026-11-22",
});

export const DEFAULT_FACULTY = "Main Campus";

/**
 * Town centres from public gazetteers (GeoNames, Wikipedia, the
 * sri-lanka-provinces-districts-cities list) and published junction, bus stand
 * and railway station positions. The campus-area codes take the centre of the
 * place their name names: "colombo-medical" is Borella junction (Colombo 8).
 */
export const CITIES: readonly City[] = Object.freeze([
  { code: "colombo", name: "Colombo", latitude: 6.9341, longitude: 79.85 },
  { code: "kandy", name: "Kandy", latitude: 7.2955, longitude: 80.6356 },
  { code: "moratuwa", name: "Moratuwa", latitude: 6.773, longitude: 79.8816 },
  { code: "kelaniya", name: "Kelaniya", latitude: 6.9553, longitude: 79.922 },
  { code: "jaffna", name: "Jaffna", latitude: 9.6684, longitude: 80.0074 },
  { code: "matara", name: "Matara", latitude: 5.9485, longitude: 80.5353 },
  { code: "nugegoda", name: "Nugegoda", latitude: 6.8721, longitude: 79.8884 },
  { code: "malabe", name: "Malabe", latitude: 6.9036, longitude: 79.9547 },
  { code: "ratmalana", name: "Ratmalana", latitude: 6.8188, longitude: 79.871 },
  { code: "katubedda", name: "Katubedda", latitude: 6.7974, longitude: 79.8886 },
  { code: "kuliyapitiya", name: "Kuliyapitiya", latitude: 7.4688, longitude: 80.0401 },
  { code: "homagama", name: "Homagama", latitude: 6.844, longitude: 80.0024 },
  { code: "belihuloya", name: "Belihuloya", latitude: 6.7181, longitude: 80.7671 },
  { code: "batticaloa", name: "Batticaloa", latitude: 7.7102, longitude: 81.6924 },
  { code: "colombo-medical", name: "Colombo (Medical Faculty)", latitude: 6.9147, longitude: 79.8778 },
  { code: "ragama-medical", name: "Ragama", latitude: 7.0292, longitude: 79.917 },
  { code: "galle-medical", name: "Galle", latitude: 6.0329, longitude: 80.2168 },
  { code: "mount-lavinia-engineering", name: "Mount Lavinia", latitude: 6.8339, longitude: 79.8644 },
  { code: "mattegoda-engineering", name: "Mattegoda", latitude: 6.8135, longitude: 79.9724 },
]);

function mainCampus(id: string, city: string, cityCode: string, latitude: number, longitude: number): Faculty {
  return { id, name: DEFAULT_FACULTY, city, cityCode, isMainCampus: true, latitude, longitude };
}

function faculty(
  id: string,
  name: string,
  city: string,
  cityCode: string,
  latitude: number,
  longitude: number,
): Faculty {
  return { id, name, city, cityCode, isMainCampus: false, latitude, longitude };
}

type UniversityInput = Omit<University, "latitude" | "longitude" | "campuses" | "isActive">;

/** Builds a university whose own coordinates are those of its main campus. */
function university(input: UniversityInput): University {
  const main = input.faculties.find((f) => f.isMainCampus);
  if (!main) throw new Error(`University ${input.id} has no main campus`);
  return {
    ...input,
    isActive: true,
    campuses: [],
    latitude: main.latitude,
    longitude: main.longitude,
  };
}

export const UNIVERSITIES: readonly University[] = Object.freeze([
  university({
    id: "university-of-colombo",
    name: "University of Colombo",
    shortName: "UOC",
    city: "colombo",
    district: "Colombo",
    province: "Western",
    type: "public",
    faculties: [
      mainCampus("uoc-main", "Colombo", "colombo", 6.9007, 79.8612),
      faculty("uoc-medicine", "Faculty of Medicine Colombo", "Colombo", "colombo-medical", 6.9177, 79.8687),
    ],
  }),
  university({
    id: "university-of-peradeniya",
    name: "University of Peradeniya",
    shortName: "UOP",
    city: "kandy",
    district: "Kandy",
    province: "Central",
    type: "public",
    faculties: [mainCampus("uop-main", "Kandy", "kandy", 7.2546, 80.598)],
  }),
  university({
    id: "university-of-moratuwa",
    name: "University of Moratuwa",
    shortName: "UOM",
    city: "moratuwa",
    district: "Colombo",
    province: "Western",
    type: "public",
    faculties: [mainCampus("uom-main", "Moratuwa", "moratuwa", 6.7951, 79.9009)],
  }),
  university({
    id: "university-of-kelaniya",
    name: "University of Kelaniya",
    shortName: "UOK",
    city: "kelaniya",
    district: "Gampaha",
    province: "Western",
    type: "public",
    faculties: [
      mainCampus("uok-main", "Kelaniya", "kelaniya", 6.9736, 79.9153),
      faculty("uok-medicine", "Faculty of Medicine Ragama", "Ragama", "ragama-medical", 7.0267, 79.9202),
    ],
  }),
  university({
    id: "university-of-jaffna",
    name: "University of Jaffna",
    shortName: "UOJ",
    city: "jaffna",
    district: "Jaffna",
    province: "Northern",
    type: "public",
    faculties: [mainCampus("uoj-main", "Jaffna", "jaffna", 9.6846, 80.022)],
  }),
  university({
    id: "university-of-ruhuna",
    name: "University of Ruhuna",
    shortName: "UOR",
    city: "matara",
    district: "Matara",
    province: "Southern",
    type: "public",
    faculties: [
      mainCampus("uor-main", "Matara", "matara", 5.9382, 80.5763),
      faculty("uor-medicine", "Faculty of Medicine Galle", "Galle", "galle-medical", 6.066, 80.2268),
    ],
  }),
  university({
    id: "university-of-sri-jayewardenepura",
    name: "University of Sri Jayewardenepura",
    shortName: "USJ",
    city: "nugegoda",
    district: "Colombo",
    province: "Western",
    type: "public",
    faculties: [
      mainCampus("usj-main", "Nugegoda", "nugegoda", 6.8528, 79.9036),
      faculty(
        "usj-engineering-current",
        "Faculty of Engineering (current)",
        "Mount Lavinia",
        "mount-lavinia-engineering",
        6.839,
        79.87,
      ),
      faculty(
        "usj-engineering-new",
        "Faculty of Engineering (new)",
        "Mattegoda",
        "mattegoda-engineering",
        6.8197,
        79.9742,
      ),
    ],
  }),
  university({
    id: "open-university-of-sri-lanka",
    name: "The Open University of Sri Lanka",
    shortName: "OUSL",
    city: "colombo",
    district: "Colombo",
    province: "Western",
    type: "public",
    faculties: [mainCampus("ousl-main", "Nawala", "colombo", 6.883, 79.8847)],
  }),
  university({
    id: "sliit-malabe",
    name: "SLIIT Malabe",
    shortName: "SLIIT",
    city: "malabe",
    district: "Colombo",
    province: "Western",
    type: "private",
    faculties: [mainCampus("sliit-main", "Malabe", "malabe", 6.9147, 79.9729)],
  }),
  university({
    id: "kdu",
    name: "General Sir John Kotelawala Defence University",
    shortName: "KDU",
    city: "ratmalana",
    district: "Colombo",
    province: "Western",
    type: "defense",
    faculties: [mainCampus("kdu-main", "Ratmalana", "ratmalana", 6.8196, 79.8893)],
  }),
  university({
    id: "technical-college-katubedda",
    name: "Technical College Katubedda",
    shortName: "TCK",
    city: "katubedda",
    district: "Colombo",
    province: "Western",
    type: "technical",
    faculties: [mainCampus("tck-main", "Katubedda", "katubedda", 6.798, 79.899)],
  }),
  university({
    id: "wayamba",
    name: "Wayamba University of Sri Lanka",
    shortName: "WUSL",
    city: "kuliyapitiya",
    district: "Kurunegala",
    province: "North Western",
    type: "public",
    faculties: [mainCampus("wusl-main", "Kuliyapitiya", "kuliyapitiya", 7.4722, 80.04)],
  }),
  university({
    id: "itum",
    name: "Institute of Technology University of Moratuwa",
    shortName: "ITUM",
    city: "homagama",
    district: "Colombo",
    province: "Western",
    type: "technical",
    faculties: [mainCampus("itum-main", "Homagama", "homagama", 6.827, 80.033)],
  }),
  university({
    id: "sabaragamuwa",
    name: "Sabaragamuwa University of Sri Lanka",
    shortName: "SUSL",
    city: "belihuloya",
    district: "Ratnapura",
    province: "Sabaragamuwa",
    type: "public",
    faculties: [mainCampus("susl-main", "Belihuloya", "belihuloya", 6.7143, 80.787)],
  }),
  university({
    id: "eastern",
    name: "Eastern University Sri Lanka",
    shortName: "EUSL",
    city: "batticaloa",
    district: "Batticaloa",
    province: "Eastern",
    type: "public",
    faculties: [mainCampus("eusl-main", "Batticaloa", "batticaloa", 7.7945, 81.579)],
  }),
]);

function normalize(value: string): string {
  return value.trim().toLowerCase();
}

/** Finds a university by id, short name or full name (case-insensitive, trimmed). */
export function findUniversity(value: string): University | undefined {
  const needle = normalize(value);
  if (!needle) return undefined;
  return UNIVERSITIES.find(
    (u) => normalize(u.id) === needle || normalize(u.shortName) === needle || normalize(u.name) === needle,
  );
}

/** Finds a faculty of `university` by id or name (case-insensitive, trimmed). */
export function findFaculty(university: University, value: string): Faculty | undefined {
  const needle = normalize(value);
  if (!needle) return undefined;
  return university.faculties.find((f) => normalize(f.id) === needle || normalize(f.name) === needle);
}

/**
 * Fallback city per university, exactly as the product specification lists it.
 * Quirk kept on purpose: universities not listed here (Wayamba, ITUM,
 * Sabaragamuwa, Eastern, ...) fall back to "colombo" in `cityForUniversity`
 * even though their `city` field holds their real city code.
 */
const FALLBACK_CITY_BY_UNIVERSITY_ID: Readonly<Record<string, string>> = Object.freeze({
  "university-of-colombo": "colombo",
  "open-university-of-sri-lanka": "colombo",
  "university-of-peradeniya": "kandy",
  "university-of-moratuwa": "moratuwa",
  "university-of-kelaniya": "kelaniya",
  "university-of-jaffna": "jaffna",
  "university-of-ruhuna": "matara",
  "university-of-sri-jayewardenepura": "nugegoda",
  "sliit-malabe": "malabe",
  kdu: "ratmalana",
  "technical-college-katubedda": "katubedda",
});

const FALLBACK_CITY = "colombo";

/**
 * City code to default to for a university given by id, short name or name.
 * Anything not listed in the product specification (including unknown values) -> "colombo".
 */
export function cityForUniversity(value: string): string {
  const university = findUniversity(value);
  if (!university) return FALLBACK_CITY;
  return FALLBACK_CITY_BY_UNIVERSITY_ID[university.id] ?? FALLBACK_CITY;
}

/**
 * City code for a faculty chosen in the post-ad form: the faculty's own
 * `cityCode`, or the university's own city when the
 * faculty is unknown.
 */
export function cityForFaculty(university: University, facultyName: string): string {
  return findFaculty(university, facultyName)?.cityCode ?? university.city;
}

/** Finds a city by code or display name (case-insensitive, trimmed). */
export function findCity(value: string): City | undefined {
  const needle = normalize(value);
  if (!needle) return undefined;
  return CITIES.find((c) => c.code === needle || normalize(c.name) === needle);
}

/** Display name for a city code; the code itself when unknown. */
export function cityName(code: string): string {
  return CITIES.find((c) => c.code === code)?.name ?? code;
}
