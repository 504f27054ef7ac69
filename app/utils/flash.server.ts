import { createCookie, redirect, type TypedResponse } from "@remix-run/node";
import { z } from "zod";
import { env } from "~/env.server";

/**
 * A one-shot message carried across a redirect. The root loader reads and clears it; the page
 * renders it in a status region (seen without JavaScript) and sonner shows it as a toast.
 */
export const flashSchema = z.object({
  type: z.enum(["success", "error", "info"]),
  message: z.string().max(500),
  id: z.string().max(40).optional(),
});
export type Flash = z.infer<typeof flashSchema>;

/** The cookie's payload: the message and the page that will show it. */
const pendingSchema = flashSchema.extend({ on: z.string().max(300) });

let cookie: ReturnType<typeof createCookie> | undefined;
function flashCookie() {
  cookie ??= createCookie("__flash", {
    httpOnly: true,
    sameSite: "lax",
    secure: env().NODE_ENV === "production",
    path: "/",
    secrets: [env().SESSION_SECRET],
    maxAge: 60,
  });
  return cookie;
}

/**
 * Pages that only redirect onwards. A message names the page that will show it, so a redirect
 * hop in between (/dashboard → /student → /student/overview) cannot consume it on the way.
 */
const REDIRECT_ONLY: Record<string, string> = {
  "/student": "/student/overview",
  "/admin": "/admin/overview",
  "/trainer": "/trainer/overview",
};

function landingPath(url: string): string {
  const pathname = new URL(url, "http://x").pathname;
  return REDIRECT_ONLY[pathname] ?? pathname;
}

/**
 * The cookie goes to every path: the page is named in it rather than in the cookie's Path,
 * because with JavaScript the router loads a page's data from `/that/page.data`, a path a
 * cookie scoped to `/that/page` is not sent to.
 */
export async function flashHeader(flash: Flash, showOn: string): Promise<string> {
  return flashCookie().serialize({ ...flash, id: flash.id ?? Math.random().toString(36).slice(2), on: showOn });
}

/**
 * Redirects with a message shown on the page redirected to (or on `showOn`, when the target
 * itself redirects elsewhere, as /dashboard does); extra Set-Cookie values ride along.
 */
export async function redirectWithFlash(
  url: string,
  flash: Flash,
  setCookies: string[] = [],
  options: { showOn?: string } = {},
): Promise<TypedResponse<never>> {
  const headers = new Headers();
  for (const c of setCookies) headers.append("Set-Cookie", c);
  headers.append("Set-Cookie", await flashHeader(flash, options.showOn ?? landingPath(url)));
  return redirect(url, { headers });
}

/**
 * The message pending for this request's page, with the Set-Cookie value that clears it; a
 * message for another page is left for that page. A cookie that does not parse is cleared.
 */
export async function readFlash(request: Request): Promise<{ flash: (Flash & { id: string }) | null; clear: string[] }> {
  const raw = await flashCookie().parse(request.headers.get("Cookie"));
  if (!raw) return { flash: null, clear: [] };
  const parsed = pendingSchema.safeParse(raw);
  if (parsed.success && parsed.data.on !== new URL(request.url).pathname) return { flash: null, clear: [] };
  const clear = [await flashCookie().serialize("", { maxAge: 0 })];
  if (!parsed.success) return { flash: null, clear };
  const { on: _page, ...flash } = parsed.data;
  return { flash: { ...flash, id: flash.id ?? "flash" }, clear };
}
