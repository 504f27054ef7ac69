import { Link, useLocation } from "@remix-run/react";
import { PageTitle } from "~/components/portal-shell";
import { Alert } from "~/components/ui";

/** A page of the admin portal whose data could not be loaded: the portal frame stays. */
export function AdminPageError({ title, message }: { title: string; message: string }) {
  const { pathname, search } = useLocation();
  return (
    <>
      <PageTitle title={title} />
      <Alert>{message}</Alert>
      <p className="mt-4 text-sm text-steel-600">
        Please{" "}
        <Link to={`${pathname}${search}`} reloadDocument className="font-semibold underline">
          try again
        </Link>{" "}
        in a moment.
      </p>
    </>
  );
}
