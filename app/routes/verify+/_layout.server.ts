/**
 * What verify.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { getOptionalUser } from "~/auth/guards.server";
export { organisation } from "~/env.server";
