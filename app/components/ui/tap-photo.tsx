import type { ReactElement } from "react";

/**
 * A photo as data saver shows it (ADR 090): inside a closed <details> (styled
 * by `.tap` in app.css), so that its lazy image is not fetched until the
 * summary is tapped; without words to tap, the photo as it is. Works without
 * JavaScript. Imported by the listing card and the gallery only, so that it
 * joins a chunk those pages load already instead of costing one of its own.
 */
export function tapPhoto(tapToShow: string | undefined, photo: ReactElement): ReactElement {
  return tapToShow ? (
    <details className="tap">
      <summary>{tapToShow}</summary>
      {photo}
    </details>
  ) : (
    photo
  );
}
