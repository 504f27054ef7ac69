import { isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { Alert, Modal } from "~/components/ui";

/**
 * The error boundary of a modal route: the page behind stays, the modal says what failed
 * (spec section 8 text) and, for an unknown id, that the record was not found.
 */
export function ModalRouteError({ title, message, closeTo }: { title: string; message: string; closeTo: string }) {
  const error = useRouteError();
  const location = useLocation();
  const detail = isRouteErrorResponse(error) && error.status === 404 && typeof error.data === "string" ? error.data : null;
  return (
    <Modal title={title} closeTo={`${closeTo}${location.search}`}>
      <Alert>{message}</Alert>
      {detail ? <p className="mt-3 text-sm text-steel-700">{detail}</p> : null}
    </Modal>
  );
}
