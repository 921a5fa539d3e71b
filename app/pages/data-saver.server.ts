import { t } from "~/i18n";
import type { ListingPhoto } from "~/schemas/listing-view";
import "virtual:catalogue/saver-server";

/**
 * What data saver changes on a page (ADR 090), written on the server so that
 * the browser's JavaScript carries no texts or rules for it.
 */

/** A photo that loads only when tapped, at its smallest size (the variants are smallest first). */
export function photoOnTap(photo: ListingPhoto): ListingPhoto {
  const smallest = photo.variants[0];
  if (!smallest) return { ...photo, tapToShow: t("saverServer.showPhoto") };
  return {
    ...photo,
    url: smallest.url,
    width: smallest.width,
    height: smallest.height,
    srcSet: "",
    variants: [smallest],
    tapToShow: t("saverServer.showPhoto"),
  };
}

/** The photos as the reader asked for them: unchanged, or each on a tap. */
export function photosForSaver<T extends ListingPhoto | null>(photos: T[], saver: boolean): T[] {
  return saver ? photos.map((photo) => (photo ? (photoOnTap(photo) as T) : photo)) : photos;
}

/** The footer's switch: its state and words (the footer posts the other choice). */
export type DataSaverSwitch = { on: boolean; label: string; hint: string };

export function dataSaverSwitch(on: boolean): DataSaverSwitch {
  return { on, label: t(on ? "saverServer.switchOn" : "saverServer.switchOff"), hint: t("saverServer.hint") };
}
