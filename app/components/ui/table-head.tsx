/**
 * A data table's column headings: the first and last cells keep no outer padding so the
 * table lines up with the text around it. Used by the audit log and My Ads.
 */
export function TableHead({ className, columns }: { className: string; columns: string[] }) {
  const last = columns.length - 1;
  return (
    <thead className={className}>
      <tr>
        {columns.map((label, i) => (
          <th
            key={label}
            scope="col"
            className={
              i === 0 ? "py-2 pr-3 font-semibold" : i === last ? "py-2 pl-3 font-semibold" : "px-3 py-2 font-semibold"
            }
          >
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
