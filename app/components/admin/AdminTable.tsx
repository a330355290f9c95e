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
  /** The row's own header (`<th scope="row">`, a figure's name); on a phone it heads the row's card. */
  rowHeader?: boolean;
  /** How many columns this cell spans in a row (the columns it covers are left out of that row). */
  span?: (row: R) => number;
  cell: (row: R) => ReactNode;
};

export function AdminTable<R>({
  columns,
  rows,
  rowKey,
  empty,
  caption,
  className,
  rowClass,
  testId,
}: {
  columns: Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string | number;
  /** Said instead of the table when there are no rows (nothing when null: the page says it already). */
  empty: ReactNode;
  caption?: ReactNode;
  className?: string;
  /** A class on a row (e.g. `a-current`, the month shown below the table). */
  rowClass?: (row: R) => string | undefined;
  testId?: string;
}) {
  if (rows.length === 0) return empty === null ? null : <p className="a-muted">{empty}</p>;
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
            <tr key={rowKey(row)} className={rowClass?.(row)}>
              {cellsOf(columns, row)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The column's name beside a value on a phone. */
const labelOf = <R,>(c: Column<R>) => c.label ?? (typeof c.header === "string" ? c.header : undefined);

/** A row's cells: a row header as `<th scope="row">`, a spanning cell covering the columns after it. */
function cellsOf<R>(columns: Column<R>[], row: R): ReactNode[] {
  const cells: ReactNode[] = [];
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    const span = c.span?.(row) ?? 1;
    const Cell = c.rowHeader ? "th" : "td";
    cells.push(
      <Cell
        key={i}
        scope={c.rowHeader ? "row" : undefined}
        colSpan={span > 1 ? span : undefined}
        data-label={c.rowHeader || span > 1 ? undefined : labelOf(c)}
        className={[c.num ? "a-num" : "", c.className ?? ""].filter(Boolean).join(" ") || undefined}
      >
        {c.cell(row)}
      </Cell>,
    );
    i += span - 1;
  }
  return cells;
}

/** A term, its value, and a class for the value. */
export type Fact = [ReactNode, ReactNode, string?];

/** A key/value list (a payment's, a member's, a brand account's facts): one `<dl>`, a row a fact. */
export function Facts({
  items,
  rows,
  className,
}: {
  /** Term, value, and a class for the value (e.g. `a-error` on a figure that should be nought); a fact that does
   * not apply is `false` or `null` and left out. */
  items: (Fact | false | null)[];
  rows?: boolean;
  className?: string;
}) {
  return (
    <dl className={["a-dl", rows ? "a-dl-rows" : "", className ?? ""].filter(Boolean).join(" ")}>
      {items
        .filter((f): f is Fact => Boolean(f))
        .map(([term, value, valueClass], i) => (
          <div key={i}>
            <dt>{term}</dt>
            <dd className={valueClass}>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
