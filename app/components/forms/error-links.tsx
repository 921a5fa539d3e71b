/**
 * An error summary's list: each field's message, linked to the field (its id is
 * `idPrefix-field`), so a keyboard user can jump from the summary to what to fix.
 */
export function ErrorLinks<Field extends string>({
  fields,
  idPrefix,
  text,
  className,
}: {
  fields: readonly Field[];
  idPrefix: string;
  text: (field: Field) => string | undefined;
  className: string;
}) {
  return (
    <ul className={className}>
      {fields.map((field) => (
        <li key={field}>
          <a href={`#${idPrefix}-${field}`} className="underline">
            {text(field)}
          </a>
        </li>
      ))}
    </ul>
  );
}
