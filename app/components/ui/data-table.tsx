import type { ReactNode } from "react";
import { cn } from "~/utils/cn";
import { Card } from "./card";
import { TableScroll } from "./table-scroll";

/** A column heading: its words, or the words with a class (alignment) or read only to screen readers. */
export type DataColumn = string | { label: string; className?: string; hidden?: boolean };

/**
 * The office's list table: a card holding a box that scrolls sideways on a phone (a labelled,
 * focusable region), a caption for screen readers and one heading per column. The label names
 * both the region and the table; the rows are the children.
 */
export function DataTable({ label, columns, children }: { label: string; columns: DataColumn[]; children: ReactNode }) {
  return (
    <Card>
      <TableScroll label={label}>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{label}</caption>
          <thead className="bg-steel-50 text-steel-700">
            <tr>
              {columns.map((column) => {
                const { label: words, className, hidden } = typeof column === "string" ? { label: column, className: undefined, hidden: false } : column;
                return (
                  <th key={words} scope="col" className={cn("px-3 py-2", className)}>
                    {hidden ? <span className="sr-only">{words}</span> : words}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </TableScroll>
    </Card>
  );
}
