import type { ReactNode, TdHTMLAttributes } from "react";

interface AdminTableColumn {
  label: string;
  /** Kept for assistive technology but not drawn, e.g. a column of buttons that speak for themselves. */
  hideLabel?: boolean;
}

interface AdminTableProps {
  /** The id of the heading that names the table. */
  labelledBy: string;
  columns: AdminTableColumn[];
  /** One or more <tbody>. */
  children: ReactNode;
}

/*
 * Below the lg breakpoint a table becomes a stack of cards, each cell showing its column name
 * before its value. Safari drops the table semantics of a table that is no longer displayed as
 * one, hence the explicit roles.
 */

/** The element holding one entry, a row or a group of rows: a card on phones, a ruled row on wide screens. */
export const entryClassName =
  "max-lg:block max-lg:rounded-xl max-lg:border max-lg:border-line max-lg:bg-surface max-lg:p-4 max-lg:shadow-sm lg:border-t lg:border-line";

/** A <tbody> whose rows are each one entry. */
export const stackedBodyClassName = "max-lg:flex max-lg:flex-col max-lg:gap-3";

export const rowClassName = "max-lg:block";

export function AdminTable({ labelledBy, columns, children }: AdminTableProps) {
  return (
    // A wide table scrolls sideways inside its frame: keyboard users reach that scroll through the focus (WCAG 2.1.1).
    <div role="region" aria-labelledby={labelledBy} tabIndex={0} className="lg:overflow-x-auto lg:rounded-xl lg:border lg:border-line lg:bg-surface lg:shadow-sm">
      <table role="table" aria-labelledby={labelledBy} className="w-full text-left text-sm max-lg:flex max-lg:flex-col max-lg:gap-3">
        <thead role="rowgroup" className="bg-accent-soft/60 max-lg:sr-only">
          <tr role="row">
            {columns.map(({ label, hideLabel }) => (
              <th key={label} role="columnheader" scope="col" className="px-3 py-2.5 font-semibold text-ink">
                <span className={hideLabel ? "sr-only" : undefined}>{label}</span>
              </th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}

interface CellProps extends Omit<TdHTMLAttributes<HTMLTableCellElement>, "role"> {
  /** The column name shown before the value on phones; without it the cell spans the card, e.g. as its title. */
  label?: string;
  children?: ReactNode;
}

const wideCellClassName = "lg:px-3 lg:py-3 lg:align-top";
const labelledCellClassName =
  "max-lg:grid max-lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] max-lg:gap-3 max-lg:py-1.5 max-lg:before:font-medium max-lg:before:text-ink-muted max-lg:before:content-[attr(data-label)]";
const spanningCellClassName = "max-lg:block max-lg:py-1.5 max-lg:empty:hidden";

export function Cell({ label, className = "", children, ...cellProps }: CellProps) {
  return (
    <td
      role="cell"
      data-label={label}
      className={`${label ? labelledCellClassName : spanningCellClassName} ${wideCellClassName} ${className}`}
      {...cellProps}
    >
      {/* One grid item next to the label, however many nodes the value is made of. */}
      {label ? <div className="min-w-0 break-words">{children}</div> : children}
    </td>
  );
}
