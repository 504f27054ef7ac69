/**
 * An assessment's evidence inside the admin portal: the same page, loader and actions as the
 * trainer's (they let admins read it; only its assessor adds to it), reached from a student's
 * assessment history.
 */
export { loader, action, meta, ErrorBoundary, default } from "../trainer+/evidence.$kind.$id";
