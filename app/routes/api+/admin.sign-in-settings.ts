import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { signInSettingsRequest, type SignInSettingsResponse } from "~/api/schemas";
import { requireApiUser } from "~/api/auth.server";
import { providerSettings } from "~/auth/single-sign-on.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { setRequireSsoForStaff, signInSettings, type SignInSettings } from "~/models/sign-in-settings.server";

/**
 * GET /api/admin/sign-in-settings → the configured provider's name (null when single sign-on is
 * not set up) and whether staff must sign in with it.
 * PUT /api/admin/sign-in-settings {require_sso_for_staff} → the settings as they now are (the
 * Staff page's switch: the same model call and schema; turning it on without a provider is a 409).
 * Administrators only.
 */
const answer = (settings: SignInSettings): SignInSettingsResponse => ({ provider: providerSettings()?.name ?? null, ...settings });

const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    return apiJson(answer(await signInSettings(getDb())), { headers: { "Cache-Control": "no-store" } });
  },
  PUT: async ({ request }) => {
    const admin = await requireApiUser(request, "admin");
    const { require_sso_for_staff } = parseInput(signInSettingsRequest, await readJsonBody(request));
    const settings = await setRequireSsoForStaff(getDb(), {
      required: require_sso_for_staff,
      provider: providerSettings()?.name ?? null,
      actor: { id: admin.id, client: clientAddress(request) },
    });
    return apiJson(answer(settings));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
