import { describe, expect, it } from "vitest";
import {
  CITIES,
  cityForFaculty,
  cityForUniversity,
  cityName,
  DEFAULT_FACULTY,
  DIRECTORY_META,
  findCity,
  findFaculty,
  findUniversity,
  UNIVERSITIES,
  type University,
} from "./universities";

const CITY_CODES = [
  "colombo",
  "kandy",
  "moratuwa",
  "kelaniya",
  "jaffna",
  "matara",
  "nugegoda",
  "malabe",
  "ratmalana",
  "katubedda",
  "kuliyapitiya",
  "homagama",
  "belihuloya",
  "batticaloa",
  "colombo-medical",
  "ragama-medical",
  "galle-medical",
  "mount-lavinia-engineering",
  "mattegoda-engineering",
];

function mustFind(value: string): University {
  const university = findUniversity(value);
  if (!university) throw new Error(`university not found: ${value}`);
  return university;
}

const allFaculties = UNIVERSITIES.flatMap((u) => u.faculties);

type Point = { readonly latitude: number; readonly longitude: number };

/** Great-circle distance in km (haversine, mean Earth radius), kept local so this test needs no other module. */
function haversineKm(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(Math.min(1, h)));
}

describe("directory data", () => {
  it("has metadata", () => {
    expect(DIRECTORY_META.version).toBe("1.0.0");
    expect(DIRECTORY_META.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(DEFAULT_FACULTY).toBe("Main Campus");
  });

  it("lists exactly 15 universities with unique ids and short names", () => {
    expect(UNIVERSITIES).toHaveLength(15);
    expect(new Set(UNIVERSITIES.map((u) => u.id)).size).toBe(15);
    expect(new Set(UNIVERSITIES.map((u) => u.shortName)).size).toBe(15);
    for (const u of UNIVERSITIES) {
      expect(u.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(u.isActive).toBe(true);
      expect(u.campuses).toEqual([]);
      expect(u.district).not.toBe("");
      expect(u.province).not.toBe("");
    }
  });

  it("has unique kebab-case faculty ids across the directory", () => {
    const ids = allFaculties.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("gives every university exactly one 'Main Campus' faculty", () => {
    for (const u of UNIVERSITIES) {
      const mains = u.faculties.filter((f) => f.isMainCampus);
      expect(mains, u.id).toHaveLength(1);
      const [main] = mains;
      expect(main?.name).toBe(DEFAULT_FACULTY);
      expect(main?.cityCode, u.id).toBe(u.city);
      expect([u.latitude, u.longitude]).toEqual([main?.latitude, main?.longitude]);
    }
  });

  it("has exactly the 19 city codes, and every city code in use is known", () => {
    expect(CITIES.map((c) => c.code).sort()).toEqual([...CITY_CODES].sort());
    for (const c of CITIES) expect(c.name).not.toBe("");
    for (const u of UNIVERSITIES) expect(CITY_CODES).toContain(u.city);
    for (const f of allFaculties) expect(CITY_CODES, f.id).toContain(f.cityCode);
  });

  it("uses the expected types", () => {
    expect(mustFind("sliit-malabe").type).toBe("private");
    expect(mustFind("kdu").type).toBe("defense");
    expect(mustFind("technical-college-katubedda").type).toBe("technical");
    expect(mustFind("itum").type).toBe("technical");
    expect(mustFind("university-of-colombo").type).toBe("public");
  });

  it("keeps real city codes for universities that fall back to colombo", () => {
    expect(mustFind("wayamba").city).toBe("kuliyapitiya");
    expect(mustFind("itum").city).toBe("homagama");
    expect(mustFind("sabaragamuwa").city).toBe("belihuloya");
    expect(mustFind("eastern").city).toBe("batticaloa");
    expect(mustFind("OUSL").city).toBe("colombo");
    expect(mustFind("OUSL").faculties[0]?.city).toBe("Nawala");
  });

  it("gives USJ its three faculties", () => {
    const usj = mustFind("USJ");
    expect(usj.faculties.map((f) => [f.name, f.cityCode])).toEqual([
      ["Main Campus", "nugegoda"],
      ["Faculty of Engineering (current)", "mount-lavinia-engineering"],
      ["Faculty of Engineering (new)", "mattegoda-engineering"],
    ]);
  });

  it("has the three medical faculties", () => {
    expect(findFaculty(mustFind("UOC"), "Faculty of Medicine Colombo")?.cityCode).toBe("colombo-medical");
    expect(findFaculty(mustFind("UOK"), "Faculty of Medicine Ragama")?.cityCode).toBe("ragama-medical");
    expect(findFaculty(mustFind("UOR"), "Faculty of Medicine Galle")?.cityCode).toBe("galle-medical");
  });

  it("gives every city a town centre inside Sri Lanka", () => {
    for (const c of CITIES) {
      expect(c.latitude, c.code).toBeGreaterThanOrEqual(5.8);
      expect(c.latitude, c.code).toBeLessThanOrEqual(9.9);
      expect(c.longitude, c.code).toBeGreaterThanOrEqual(79.5);
      expect(c.longitude, c.code).toBeLessThanOrEqual(81.95);
      // Rounded to 4 decimals (about 11 m), like the faculty coordinates.
      expect(Number(c.latitude.toFixed(4)), c.code).toBe(c.latitude);
      expect(Number(c.longitude.toFixed(4)), c.code).toBe(c.longitude);
    }
  });

  it("puts every faculty within 25 km of its city's centre", () => {
    const far = allFaculties.flatMap((f) => {
      const city = CITIES.find((c) => c.code === f.cityCode);
      if (!city) return [`${f.id}: unknown city ${f.cityCode}`];
      const km = haversineKm(f, city);
      return km <= 25 ? [] : [`${f.id} is ${km.toFixed(1)} km from the centre of ${city.code}`];
    });
    expect(far).toEqual([]);
  });

  it("places every campus inside Sri Lanka", () => {
    const points = [
      ...UNIVERSITIES.map((u) => ({ id: u.id, lat: u.latitude, lng: u.longitude })),
      ...allFaculties.map((f) => ({ id: f.id, lat: f.latitude, lng: f.longitude })),
    ];
    for (const p of points) {
      expect(p.lat, p.id).toBeGreaterThanOrEqual(5.8);
      expect(p.lat, p.id).toBeLessThanOrEqual(9.9);
      expect(p.lng, p.id).toBeGreaterThanOrEqual(79.5);
      expect(p.lng, p.id).toBeLessThanOrEqual(82.0);
    }
  });
});

describe("findUniversity", () => {
  it("matches id, short name and full name in any case, trimmed", () => {
    const uoc = mustFind("university-of-colombo");
    expect(findUniversity("UNIVERSITY-OF-COLOMBO")).toBe(uoc);
    expect(findUniversity("uoc")).toBe(uoc);
    expect(findUniversity("  Uoc ")).toBe(uoc);
    expect(findUniversity("university of colombo")).toBe(uoc);
    expect(findUniversity("UNIVERSITY OF COLOMBO")).toBe(uoc);
    expect(findUniversity("the open university of sri lanka")?.id).toBe("open-university-of-sri-lanka");
    expect(findUniversity("sliit")?.id).toBe("sliit-malabe");
  });

  it("does not confuse University of Moratuwa with ITUM", () => {
    expect(findUniversity("University of Moratuwa")?.id).toBe("university-of-moratuwa");
    expect(findUniversity("Institute of Technology University of Moratuwa")?.id).toBe("itum");
  });

  it("returns undefined for unknown or blank input", () => {
    expect(findUniversity("Hogwarts")).toBeUndefined();
    expect(findUniversity("")).toBeUndefined();
    expect(findUniversity("   ")).toBeUndefined();
  });
});

describe("findFaculty", () => {
  it("matches id or name case-insensitively", () => {
    const usj = mustFind("usj");
    expect(findFaculty(usj, "USJ-ENGINEERING-NEW")?.name).toBe("Faculty of Engineering (new)");
    expect(findFaculty(usj, " main campus ")?.id).toBe("usj-main");
    expect(findFaculty(usj, "Faculty of Medicine Colombo")).toBeUndefined();
    expect(findFaculty(usj, "")).toBeUndefined();
  });
});

describe("cityForUniversity", () => {
  it.each([
    ["University of Colombo", "colombo"],
    ["The Open University of Sri Lanka", "colombo"],
    ["University of Peradeniya", "kandy"],
    ["University of Moratuwa", "moratuwa"],
    ["University of Kelaniya", "kelaniya"],
    ["University of Jaffna", "jaffna"],
    ["University of Ruhuna", "matara"],
    ["University of Sri Jayewardenepura", "nugegoda"],
    ["SLIIT Malabe", "malabe"],
    ["General Sir John Kotelawala Defence University", "ratmalana"],
    ["Technical College Katubedda", "katubedda"],
  ])("%s -> %s", (name, city) => {
    expect(cityForUniversity(name)).toBe(city);
    expect(cityForUniversity(mustFind(name).id)).toBe(city);
    expect(cityForUniversity(mustFind(name).shortName.toLowerCase())).toBe(city);
  });

  it.each(["Wayamba University of Sri Lanka", "itum", "SUSL", "eastern"])(
    "%s falls back to colombo (spec quirk)",
    (value) => {
      expect(cityForUniversity(value)).toBe("colombo");
    },
  );

  it("falls back to colombo for unknown names", () => {
    expect(cityForUniversity("Some Unknown Institute")).toBe("colombo");
    expect(cityForUniversity("")).toBe("colombo");
  });
});

describe("cityForFaculty", () => {
  it("returns the faculty's city code", () => {
    expect(cityForFaculty(mustFind("USJ"), "Faculty of Engineering (current)")).toBe("mount-lavinia-engineering");
    expect(cityForFaculty(mustFind("USJ"), "Main Campus")).toBe("nugegoda");
    expect(cityForFaculty(mustFind("UOK"), "Faculty of Medicine Ragama")).toBe("ragama-medical");
    expect(cityForFaculty(mustFind("wayamba"), "Main Campus")).toBe("kuliyapitiya");
  });

  it("falls back to the university's own city for unknown faculties", () => {
    expect(cityForFaculty(mustFind("UOP"), "Faculty of Nothing")).toBe("kandy");
    expect(cityForFaculty(mustFind("wayamba"), "Faculty of Nothing")).toBe("kuliyapitiya");
  });
});

describe("cities", () => {
  it("findCity matches code or name case-insensitively", () => {
    expect(findCity("KANDY")?.code).toBe("kandy");
    expect(findCity(" mount lavinia ")?.code).toBe("mount-lavinia-engineering");
    expect(findCity("Ragama")?.code).toBe("ragama-medical");
    expect(findCity("galle-medical")?.name).toBe("Galle");
    expect(findCity("Atlantis")).toBeUndefined();
  });

  it("cityName returns the display name or the code itself", () => {
    expect(cityName("mount-lavinia-engineering")).toBe("Mount Lavinia");
    expect(cityName("mattegoda-engineering")).toBe("Mattegoda");
    expect(cityName("colombo-medical")).toBe("Colombo (Medical Faculty)");
    expect(cityName("unknown-code")).toBe("unknown-code");
  });
});
