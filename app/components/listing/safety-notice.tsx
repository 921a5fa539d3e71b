import { ShieldIcon } from "~/components/ui/icons";
import type { SafetyView } from "~/schemas/listing-view";

// 'Never pay before you have seen the place' stands beside every contact action
// instead (ADR 077), so the notice does not say it twice. Its words come from
// the loader (app/pages/listing-page.server.ts): no message keys in the page's JavaScript.

/** The safety notice, calm and readable rather than alarming. */
export function SafetyNotice({ safety }: { safety: SafetyView }) {
  return (
    <section
      aria-labelledby="safety-heading"
      className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-950"
    >
      <h2 id="safety-heading" className="flex items-center gap-2 text-base font-semibold">
        <ShieldIcon className="h-5 w-5 shrink-0 text-amber-700" />
        {safety.heading}
      </h2>
      <p className="mt-2 text-sm">{safety.intro}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
        {safety.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <p className="mt-3 text-sm">{safety.disclaimer}</p>
    </section>
  );
}
