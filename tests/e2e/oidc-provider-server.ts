/**
 * The OpenID provider the browser journeys sign in with (tests/support/oidc-provider.ts), run
 * by Playwright beside the portal: E2E_PORT + 5, with the portal's client registered for the
 * portal's callback on each of its servers.
 */
import { startTestProvider } from "../support/oidc-provider";

const port = Number(process.env.OIDC_PORT ?? 3105);
const portals = (process.env.PORTAL_ORIGINS ?? "http://localhost:3100").split(",");
const provider = await startTestProvider({
  port,
  clients: [{ client_id: "portal", client_secret: "e2e-oidc-secret-e2e-oidc-secret", redirect_uris: portals.map((o) => `${o}/login/sso/callback`) }],
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void provider.stop().then(() => process.exit(0)));
