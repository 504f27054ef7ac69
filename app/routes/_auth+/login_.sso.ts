import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireAnonymous } from "~/auth/guards.server";
import { keepProviderStart } from "~/auth/session.server";
import { beginProviderSignIn, CALLBACK_PATH, providerSettings } from "~/auth/single-sign-on.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { logLine } from "~/utils/log.server";
import { publicLink } from "~/utils/public-link.server";
import { safeRedirect, withReturn } from "~/utils/safe-redirect";

/**
 * "Sign in with <provider>": a plain link, so it works without JavaScript. It stores nothing:
 * the state, nonce and PKCE verifier go into a short-lived signed cookie, and the browser goes to
 * the provider (docs/decisions/038-single-sign-on.md).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const settings = providerSettings();
  if (!settings) throw new Response("Not Found", { status: 404 });
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  const back = withReturn("/login", redirectTo === "/dashboard" ? null : redirectTo);
  const redirectUri = publicLink(request, CALLBACK_PATH);
  if (!redirectUri) {
    logLine({ event: "sso-not-started", reason: "no APP_URL for the callback address" });
    return redirectWithFlash(back, { type: "error", message: `Sign-in with ${settings.name} is not available here. Please sign in with your password.` });
  }
  let begun;
  try {
    begun = await beginProviderSignIn(settings, redirectUri);
  } catch (error) {
    logLine({ event: "sso-provider-unavailable", error: String(error).slice(0, 200) });
    return redirectWithFlash(back, { type: "error", message: `${settings.name} is not answering. Please try again in a moment.` });
  }
  return redirect(begun.url.href, {
    headers: { "Set-Cookie": await keepProviderStart({ ...begun.start, redirectTo }), "Cache-Control": "no-store" },
  });
}
