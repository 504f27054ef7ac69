import { createCookie, redirect } from "@remix-run/node";
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

export async function flashHeader(flash: Flash): Promise<string> {
  return flashCookie().serialize({ ...flash, id: flash.id ?? Math.random().toString(36).slice(2) });
}

/** Redirects with a message; extra Set-Cookie values (a new session, say) ride along. */
export async function redirectWithFlash(url: string, flash: Flash, setCookies: string[] = []): Promise<Response> {
  const headers = new Headers();
  for (const c of setCookies) headers.append("Set-Cookie", c);
  headers.append("Set-Cookie", await flashHeader(flash));
  return redirect(url, { headers });
}

/** Reads the pending message, with the Set-Cookie that clears it. */
export async function readFlash(
  request: Request,
): Promise<{ flash: (Flash & { id: string }) | null; clear: string | null }> {
  const raw = await flashCookie().parse(request.headers.get("Cookie"));
  if (!raw) return { flash: null, clear: null };
  const parsed = flashSchema.safeParse(raw);
  return {
    flash: parsed.success ? { ...parsed.data, id: parsed.data.id ?? "flash" } : null,
    clear: await flashCookie().serialize("", { maxAge: 0 }),
  };
}
