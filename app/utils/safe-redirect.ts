/**
 * Only paths of this site may be redirect targets; anything else falls back. Besides other
 * hosts (`//host`, `/\host`, which browsers read as `//host`), this refuses what a Location
 * header or a cookie Path cannot carry (control characters, line breaks, `;`), so a target that
 * passes can be used as both without failing after a sign-in has already begun.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (!to || typeof to !== "string" || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//")) return fallback;
  if (/[\\;\s\p{Cc}]/u.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, "http://site.invalid");
  } catch {
    return fallback;
  }
  if (url.origin !== "http://site.invalid") return fallback;
  // Resolving dot segments can turn a harmless path into another host's: `/..//evil.example`,
  // `/a/..//x` and `/%2e%2e//x` all come out as `//…`. The result is what the browser gets, so
  // the result is what must pass.
  const resolved = url.pathname + url.search + url.hash;
  if (!resolved.startsWith("/") || resolved.startsWith("//") || resolved.startsWith("/\\")) return fallback;
  return resolved;
}

/**
 * A `redirectTo` worth carrying to the next sign-in page (registration to sign-in, sign-in to
 * its second step): a safe path of this site, or null when there is none, so links and form
 * addresses stay plain when the visitor came from nowhere in particular.
 */
export function returnPath(to: string | null | undefined): string | null {
  const safe = safeRedirect(to, "");
  return safe === "" || safe === "/dashboard" ? null : safe;
}

/** A sign-in page that returns to `back` afterwards; no query when there is nowhere to return to. */
export function withReturn(page: "/register" | "/login", back: string | null | undefined): string {
  return back ? `${page}?${new URLSearchParams({ redirectTo: back })}` : page;
}
