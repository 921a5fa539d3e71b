import type { ReactNode, RefObject } from "react";

type Props = {
  element: RefObject<HTMLElement | null>;
  /** Leaflet could not be loaded: `failedText` says so instead of an empty frame. */
  failed: boolean;
  failedText: string;
  /** A line above the map (what it shows, how to use it). */
  intro: ReactNode;
  label: string;
  testId: string;
  /** The frame's height class ('h-96'). */
  height: string;
};

/** The frame every map of ours is drawn in, with what to say above it and when it cannot load. */
export function MapFrame({ element, failed, failedText, intro, label, testId, height }: Props) {
  if (failed)
    return (
      <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        {failedText}
      </p>
    );
  return (
    <div>
      {intro}
      <section
        ref={element}
        aria-label={label}
        data-testid={testId}
        className={`mt-2 ${height} w-full overflow-hidden rounded-xl border border-slate-200 bg-slate-100`}
      />
    </div>
  );
}
