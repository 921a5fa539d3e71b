import {
  DEFAULT_FACULTY,
  type Faculty,
  findCity,
  findFaculty,
  findUniversity,
  type University,
} from "~/directory/universities";
import { t } from "~/i18n";
import { formatAmount } from "~/lib/format";
import { distanceKm, walkingMinutes } from "~/lib/geo/distance";
import { cityLabel, facultyLabel, universityLabel } from "./directory-labels.server";
import "virtual:catalogue/listing-server";

/** Beyond this straight-line distance a walking time is no help: students take a bus. */
const MOST_WALKED_KM = 5;

type Placed = {
  latitude: number | null;
  longitude: number | null;
  city: string;
  university: string;
  faculty: string;
};

/** Where a distance counts to: a faculty of a university from the directory. */
type Destination = { university: University; faculty: Faculty };

/**
 * '1.4 km from Faculty of Engineering, Mattegoda · about 20 min walk (estimate)'
 * (ADR 050): the straight line from the listing to `to` (on browse, the
 * faculty the student chose) or else to the listing's own faculty, and an
 * honest walking estimate. Without a position of its own the listing counts
 * from its city's centre and says so; null when the directory does not know
 * the faculty or the city.
 */
export function distanceLine(listing: Placed, to?: Destination): string | null {
  const destination = to ?? ownFaculty(listing);
  if (!destination) return null;
  const { university, faculty } = destination;
  const own = listing.latitude !== null && listing.longitude !== null;
  const city = own ? undefined : findCity(listing.city);
  const from = own ? { latitude: listing.latitude!, longitude: listing.longitude! } : city;
  if (!from) return null;
  const km = distanceKm(from, faculty);
  const values = {
    distance: formatDistance(km),
    place: faculty.name === DEFAULT_FACULTY ? universityLabel(university.name) : facultyLabel(faculty.name),
    town: faculty.city,
  };
  const line = own
    ? t("listingServer.distance.exact", values)
    : t("listingServer.distance.approximate", { ...values, city: cityLabel(city!.code) });
  if (!own || km > MOST_WALKED_KM) return line;
  return `${line} · ${t("listingServer.distance.walk", { minutes: walkingMinutes(km) })}`;
}

function ownFaculty(listing: Placed): Destination | null {
  const university = findUniversity(listing.university);
  const faculty = university ? findFaculty(university, listing.faculty) : undefined;
  return university && faculty ? { university, faculty } : null;
}

/** '850 m' under a kilometre (to 50 m), '1.4 km' under ten, then whole kilometres. */
function formatDistance(km: number): string {
  if (km < 1) return `${formatAmount(Math.max(50, Math.round((km * 1000) / 50) * 50))} m`;
  return `${km < 10 ? km.toFixed(1) : formatAmount(Math.round(km))} km`;
}
