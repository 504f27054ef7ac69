/**
 * What verify.$code.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data } from "@remix-run/node";
export { clientAddress } from "~/http/request-context.server";
export { getDb } from "~/db.server";
export { organisation } from "~/env.server";
export { lookUpVerification, NO_CERTIFICATE, VERIFY_LIMITED } from "~/models/certificates/certificate-verification.server";
