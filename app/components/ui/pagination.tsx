import { Link } from "@remix-run/react";
import { cn } from "~/utils/cn";
import { buttonClasses } from "./button";

/** The href of another page of a list, keeping the rest of the query string. */
export function pageHref(pathname: string, search: string, page: number): string {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  const text = params.toString();
  return `${pathname}${text ? `?${text}` : ""}`;
}

/**
 * Previous / Next links under a list, with "Showing 11–20 of 34 … (page 2 of 4)", or just
 * "Page 2 of 4" when the list states its range elsewhere (`range={false}`). A page that does
 * not exist shows its label as plain text rather than a link that goes nowhere.
 */
export function Pagination({
  label,
  page,
  pageCount,
  pageSize,
  total,
  totalCapped = false,
  pathname,
  search,
  one,
  range = true,
  className = "mt-4",
}: {
  /** the items, plural ("Entries"): the count's noun and the navigation's name */
  label: string;
  /** one item ("entry"), so a single one is not "1 entries" */
  one: string;
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  /** more than `total` match: the list counted no further */
  totalCapped?: boolean;
  pathname: string;
  search: string;
  range?: boolean;
  className?: string;
}) {
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const disabled = "inline-flex min-h-9 items-center rounded-md border border-steel-200 px-3 py-1.5 text-sm font-semibold text-steel-400";
  return (
    <nav aria-label={`${label} pages`} className={cn("flex flex-wrap items-center justify-between gap-3", className)}>
      <p className="text-sm text-steel-600" aria-live="polite">
        {range ? (
          <>
            Showing {from}&ndash;{to} of{" "}
            {totalCapped ? `more than ${total} ${label.toLowerCase()}` : total === 1 ? `1 ${one}` : `${total} ${label.toLowerCase()}`} (page {page} of{" "}
            {pageCount})
          </>
        ) : (
          `Page ${page} of ${pageCount}`
        )}
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link to={pageHref(pathname, search, page - 1)} className={buttonClasses("secondary", "sm")} rel="prev">
            Previous
          </Link>
        ) : (
          <span className={disabled} aria-disabled="true">
            Previous
          </span>
        )}
        {page < pageCount ? (
          <Link to={pageHref(pathname, search, page + 1)} className={buttonClasses("secondary", "sm")} rel="next">
            Next
          </Link>
        ) : (
          <span className={disabled} aria-disabled="true">
            Next
          </span>
        )}
      </div>
    </nav>
  );
}
