import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button, ButtonLink, Card, ErrorSummary, TextField } from "~/components/ui";
import { plural } from "~/utils/format";
import { ORGANISATION_TIME_ZONE } from "~/utils/organisation-calendar";

/** Days typed in a filter are the organisation's, whatever the reader's own zone. */
const ZONE_HINT = `Days in ${ORGANISATION_TIME_ZONE} time`;

/**
 * The GET filter form of an office list (the audit trail, the mail list): the list's own boxes,
 * then From and To (the organisation's days), Filter and Clear; every view a link that works
 * without JavaScript. Under it a summary of the bad boxes, each linking to its box, and how many items match.
 */
export function FilteredList({
  path,
  values,
  fieldErrors,
  error,
  total,
  totalCapped = false,
  noun,
  extra,
  children,
}: {
  path: string;
  values: Record<string, string>;
  fieldErrors: Record<string, string>;
  error: string | null;
  total: number;
  /** more than `total` match: the list counted no further */
  totalCapped?: boolean;
  /** what one item is called, and more than one */
  noun: readonly [string, string];
  /** beside the count, e.g. a download link */
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <Card className="mb-4 p-4">
        <Form method="get" action={path} className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6 lg:items-end">
          {children}
          <TextField label="From" name="from" type="date" defaultValue={values.from} hint={ZONE_HINT} error={fieldErrors.from} />
          <TextField label="To" name="to" type="date" defaultValue={values.to} hint={ZONE_HINT} error={fieldErrors.to} />
          <div className="flex gap-2">
            <Button type="submit">Filter</Button>
            <ButtonLink to={path} variant="secondary">
              Clear
            </ButtonLink>
          </div>
        </Form>
      </Card>
      <ErrorSummary failure={{ error, fieldErrors }} />
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-steel-700" role="status">
          {totalCapped ? `More than ${total.toLocaleString("en-AU")} ${noun[1]}: narrow the filters to count them` : plural(total, ...noun)}
        </p>
        {extra}
      </div>
    </>
  );
}
