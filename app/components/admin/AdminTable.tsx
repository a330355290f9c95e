/**
 * The console's one table (decision 231): columns, rows and an empty state. On a phone (≤ 640 px) each
 * row becomes a card whose cells carry their column's name (data-label, app/styles/admin.css), so no
 * table scrolls sideways; wider, it is a plain table inside its bordered wrapper.
 */
import type { ReactNode } from "react";

export type Column<R> = {
  /** The header cell. */
  header: ReactNode;
  /** The column's name beside each value on a phone; the header when that is text. */
  label?: string;
  /** Right-aligned figures. */
  num?: boolean;
  /** A class on the column's cells (e.g. `a-host`, a long host name that may break). */
  className?: string;
  cell: (row: R) => ReactNode;
};

export function AdminTable<R>({
  columns,
  rows,
  rowKey,
  empty,
  caption,
  className,
  testId,
}: {
  columns: Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string | number;
  /** Said instead of the table when there are no rows. */
  empty: ReactNode;
  caption?: ReactNode;
  className?: string;
  testId?: string;
}) {
  if (rows.length === 0) return <p className="a-muted">{empty}</p>;
  return (
    <div className="a-table-wrap">
      <table className={`a-table a-cards${className ? ` ${className}` : ""}`} data-testid={testId}>
        {caption ? <caption>{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col" className={c.num ? "a-num" : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c, i) => (
                <td
                  key={i}
                  data-label={c.label ?? (typeof c.header === "string" ? c.header : undefined)}
                  className={[c.num ? "a-num" : "", c.className ?? ""].filter(Boolean).join(" ") || undefined}
                >
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A key/value list (a payment's, a member's, a brand account's facts): one `<dl>`, a row a fact. */
export function Facts({
  items,
  rows,
  className,
}: {
  /** Term, value, and a class for the value (e.g. `a-error` on a figure that should be nought). */
  items: [ReactNode, ReactNode, string?][];
  rows?: boolean;
  className?: string;
}) {
  return (
    <dl className={["a-dl", rows ? "a-dl-rows" : "", className ?? ""].filter(Boolean).join(" ")}>
      {items.map(([term, value, valueClass], i) => (
        <div key={i}>
          <dt>{term}</dt>
          <dd className={valueClass}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
