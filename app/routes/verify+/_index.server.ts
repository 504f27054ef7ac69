/**
 * What verify._index.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data, redirect } from "@remix-run/node";
export { normaliseVerificationCode } from "~/models/certificates/certificate-number.server";
export { NO_CERTIFICATE } from "~/models/certificates/certificate-verification.server";
