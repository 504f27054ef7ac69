import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { HOME_BY_ROLE, requireAnonymous } from "~/auth/guards.server";
import { ProviderSignInRefused, recordProviderFailure, signInWithProvider, SSO_FAILED } from "~/auth/provider-sign-in.server";
import { clearProviderStart, createSession, providerStart, startSecondStep } from "~/auth/session.server";
import { CALLBACK_PATH, finishProviderSignIn, ProviderAnswerRefused, providerSettings } from "~/auth/single-sign-on.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { publicLink } from "~/utils/public-link.server";

/**
 * The provider sends the browser back here with a code. This GET signs in, as the protocol has
 * it (the one sign-in a GET makes); the start's cookie is read once and cleared in every answer,
 * the code is redeemed once, and each outcome is audited (docs/decisions/038-single-sign-on.md).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const settings = providerSettings();
  if (!settings) throw new Response("Not Found", { status: 404 });
  const db = getDb();
  const client = clientAddress(request);
  const cleared = await clearProviderStart();
  const refuse = (message: string) => redirectWithFlash("/login", { type: "error", message }, [cleared]);
  const start = await providerStart(request);
  const redirectUri = publicLink(request, CALLBACK_PATH);
  if (!start || !redirectUri) {
    await recordProviderFailure(db, { client, detail: "no sign-in started in this browser, or it took too long" });
    return refuse(SSO_FAILED(settings.name));
  }
  // the address the provider was given, with the answer's query (a proxy may have rewritten the request's own)
  const callbackUrl = new URL(redirectUri);
  callbackUrl.search = new URL(request.url).search;
  let identity;
  try {
    identity = await finishProviderSignIn(settings, { callbackUrl, start });
  } catch (error) {
    if (!(error instanceof ProviderAnswerRefused)) throw error;
    await recordProviderFailure(db, { client, detail: `answer refused (${error.code})` });
    return refuse(SSO_FAILED(settings.name));
  }
  let outcome;
  try {
    outcome = await signInWithProvider(db, { identity, provider: settings.name, client });
  } catch (error) {
    if (error instanceof ProviderSignInRefused) return refuse(error.message);
    throw error;
  }
  if (outcome.kind === "second_step") {
    const step = await startSecondStep(db, outcome.userId, start.redirectTo, new Date(), "single sign-on");
    const headers = new Headers([
      ["Set-Cookie", cleared],
      ["Set-Cookie", step],
    ]);
    return redirect(`/login/two-step?${new URLSearchParams({ redirectTo: start.redirectTo })}`, { headers });
  }
  const showOn = start.redirectTo === "/dashboard" ? `${HOME_BY_ROLE[outcome.user.role]}/overview` : undefined;
  const response = await redirectWithFlash(start.redirectTo, { type: "success", message: "Login successful!" }, [cleared], { showOn });
  response.headers.append("Set-Cookie", await createSession(db, outcome.user.id, new Date(), outcome.secondFactor));
  return response;
}
