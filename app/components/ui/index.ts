export { Alert, Spinner } from "./alert";
export { Badge, type BadgeTone } from "./badge";
export { Button, ButtonLink, buttonClasses, TAP_LINK } from "./button";
export { Card, EmptyState, StatCard, TitledCard } from "./card";
export { ErrorSummary, type SummarisedFailure } from "./error-summary";
export { ConfirmAction } from "./confirm-action";
export { CheckboxField, SelectField, TextAreaField, TextField } from "./field";
export { Modal } from "./modal";
export { Pagination, pageHref } from "./pagination";
export { ProgressBar, progressColour } from "./progress-bar";
export { SubmitButton } from "./submit-button";
export { TableScroll } from "./table-scroll";
export { DataTable, type DataColumn } from "./data-table";
export { FormTokenField, revalidateAfterRepeat } from "./form-token";

// The frame of every page beside the primitives: the header and its logo, the toasts, the error
// boundary's message and the status badges (with the formatting they use). The compiler makes one
// shared script for each distinct set of routes that reach a module; re-exported here, they and
// the primitives they use reach each other, so every route reaching any of them reaches them all
// and a page loads one script for the lot instead of one each (decision 043). Nothing they
// export is used while the modules load, so the circle between them is harmless.
export { SiteHeader } from "../site-header";
export { Logo } from "../logo";
export { FlashMessage, Toaster, showToast, toastMessage, useActionToast } from "../toaster";
export { DocumentError, RouteError, STATUS_MESSAGES, STUDENT_LOAD_ERROR, TRAINER_LOAD_ERROR, describeError } from "../route-error";
export { ActiveBadge, AssessmentStatusBadge, StatusBadge, TIER_TITLES, TierBadge } from "../status-badges";
