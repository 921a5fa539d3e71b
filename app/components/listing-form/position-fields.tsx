import { useState } from "react";
import { FormField, fieldsOf, inputClasses } from "~/components/ui/form-field";
import { useTranslation } from "~/i18n";
import { coordinatesFromMapLink, type LatLng, parseCoordinatePair } from "~/lib/geo/coordinates";
import { isMapLink } from "~/lib/location-link";
import type { MapTileSource } from "~/schemas/browse-view";
import { LISTING_LIMITS, type ListingTextField } from "~/schemas/listing-form";
import { PositionPicker } from "./position-picker";
import "virtual:catalogue/listing-form";

type Field = "mapLink" | "coordinates" | "exactPosition";

type Props = {
  /** The form's values as posted or stored. */
  values: Partial<Record<ListingTextField, string>>;
  /** The message for a field's error, or undefined. */
  message: (field: Field) => string | undefined;
  /** Hydrated: the link is checked as it is typed and the pin map can open. */
  enhanced: boolean;
  /** Where the pin map takes its tiles from (MAP_TILE_URL); without it there is no pin map. */
  tiles?: MapTileSource;
  /** Where the pin map opens when no position is given yet: the chosen faculty. */
  near: LatLng | null;
};

/**
 * Where the place is (ADR 049, 052): the map link, the position
 * typed or picked on a map, and whether students see the exact point.
 */
export function PositionFields({ values, message, enhanced, tiles, near }: Props) {
  const { t } = useTranslation();
  const field = fieldsOf<"mapLink" | "coordinates">({
    idPrefix: "listing",
    label: (name) => t(`listingForm.${name}`),
    error: message,
  });
  const [mapLink, setMapLink] = useState(values.mapLink ?? "");
  const [picked, setPicked] = useState<string | null>(null);
  const [exact, setExact] = useState(values.exactPosition === "1");
  // The pin map opens at the position given so far, else near the chosen faculty.
  const pickerStart = parseCoordinatePair(picked ?? values.coordinates ?? "") ?? near;
  const validMapLink = mapLink.trim() !== "" && isMapLink(mapLink);
  return (
    <>
      <FormField {...field("mapLink", { hint: t("listingForm.mapLinkHint") })}>
        {(control) => (
          <div className="flex flex-wrap items-center gap-2">
            <input
              {...control}
              type="url"
              inputMode="url"
              maxLength={LISTING_LIMITS.mapLink}
              value={mapLink}
              onChange={(event) => setMapLink(event.currentTarget.value)}
              className={`${inputClasses} flex-1`}
            />
            {validMapLink ? (
              <a
                href={mapLink.trim()}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-4 font-semibold text-brand-800 underline"
              >
                {t("listingForm.testLink")}
              </a>
            ) : null}
          </div>
        )}
      </FormField>
      {validMapLink && enhanced ? (
        <p role="status" className="-mt-3 text-sm text-green-800">
          {t("listingForm.mapLinkValid")}
          {/* A short link hides its place behind a request we do not make: ask for the pin instead. */}
          {coordinatesFromMapLink(mapLink.trim()) ? null : (
            <span className="mt-1 block text-amber-900">{t("listingForm.mapLinkNoPosition")}</span>
          )}
        </p>
      ) : null}

      <FormField {...field("coordinates", { hint: t("listingForm.coordinatesHint") })}>
        {(control) => (
          // A pin dropped on the map writes its numbers here (a new key starts the box afresh with them).
          <span key={picked ?? "typed"} className="contents">
            <input
              {...control}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              maxLength={LISTING_LIMITS.coordinates}
              defaultValue={picked ?? values.coordinates}
              className={inputClasses}
            />
          </span>
        )}
      </FormField>
      {enhanced && tiles ? (
        <div className="-mt-3">
          <PositionPicker start={pickerStart} tiles={tiles} onPick={setPicked} />
        </div>
      ) : null}
      <div className="-mt-3">
        <label className="flex min-h-11 items-center gap-2 text-slate-900">
          <input
            type="checkbox"
            name="exactPosition"
            value="1"
            defaultChecked={values.exactPosition === "1"}
            onChange={(event) => setExact(event.currentTarget.checked)}
            aria-describedby="listing-exactPosition-hint"
            className="h-5 w-5 accent-brand-700"
          />
          {t("listingForm.exactPosition")}
        </label>
        {/* Exactly what students will see (ADR 065); without JavaScript, as the box was last saved or sent. */}
        <p id="listing-exactPosition-hint" aria-live="polite" className="text-sm text-slate-600">
          {t(exact ? "listingForm.exactPositionExact" : "listingForm.exactPositionRounded")}
        </p>
      </div>
    </>
  );
}
