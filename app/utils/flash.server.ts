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
 * Pages that only redirect onwards. A flash cookie is scoped (Path) to the page that will
 * show it, so a redirect hop in between (/dashboard → /student → /student/overview) cannot
 * consume it on the way.
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

export async function flashHeader(flash: Flash, showOn: string): Promise<string> {
  return flashCookie().serialize(
    { ...flash, id: flash.id ?? Math.random().toString(36).slice(2) },
    { path: showOn },
  );
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

/** Reads the pending message, with the Set-Cookie values that clear it (at this path and above). */
export async function readFlash(
  request: Request,
): Promise<{ flash: (Flash & { id: string }) | null; clear: string[] }> {
  const raw = await flashCookie().parse(request.headers.get("Cookie"));
  if (!raw) return { flash: null, clear: [] };
  const parsed = flashSchema.safeParse(raw);
  const segments = new URL(request.url).pathname.split("/").filter(Boolean);
  const paths = segments.map((_, i) => `/${segments.slice(0, i + 1).join("/")}`);
  const clear = await Promise.all(["/", ...paths].map((path) => flashCookie().serialize("", { maxAge: 0, path })));
  return { flash: parsed.success ? { ...parsed.data, id: parsed.data.id ?? "flash" } : null, clear };
}
