import type { ReactNode } from "react";

/**
 * How a section's heading looks: a page's own part, or a bordered card. (The
 * listing page writes its sections out: its first-load JavaScript has no room.)
 */
const LOOKS = {
  page: { box: "", heading: "text-2xl font-bold" },
  card: { box: "rounded-xl border border-slate-200 p-5", heading: "text-xl font-semibold" },
} as const;

type SectionProps = {
  /** The heading's id: the section is named by its heading (aria-labelledby), as screen readers list regions. */
  id: string;
  heading: ReactNode;
  look: keyof typeof LOOKS;
  /** h2, or h3 inside a page whose parts are already h2. */
  level?: 2 | 3;
  /** Placement (margins, width) added to the look's own classes. */
  className?: string;
  children?: ReactNode;
};

/** A part of a page with its heading. */
export function Section({ id, heading, look, level = 2, className, children }: SectionProps) {
  const Heading = level === 3 ? "h3" : "h2";
  const box = [className, LOOKS[look].box].filter(Boolean).join(" ");
  return (
    <section aria-labelledby={id} className={box || undefined}>
      <Heading id={id} className={LOOKS[look].heading}>
        {heading}
      </Heading>
      {children}
    </section>
  );
}
