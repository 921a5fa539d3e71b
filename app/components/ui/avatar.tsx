/** A round initial standing in for a profile photo (we keep none). Decorative: the name is always shown beside it. */
export function Avatar({ name }: { name: string }) {
  return (
    <span
      aria-hidden="true"
      className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800"
    >
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}
