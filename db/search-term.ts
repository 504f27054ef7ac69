/**
 * A search term as the database is asked for it: unpaired surrogates and control characters
 * replaced (FTS5 reads a NUL as the end of its query; PostgreSQL refuses one in text), NFC,
 * trimmed and cut to `max` characters. Here, not in app/, because the dialects use it and
 * db/ never imports the app; the app's search fields clean with it too.
 */
export function cleanSearchTerm(raw: string, max = 100): string {
  const text = raw
    .replace(/[\uD800-\uDFFF]/gu, "\uFFFD")
    .replace(/\p{Cc}/gu, " ")
    .normalize("NFC")
    .trim();
  return [...text].slice(0, max).join("").trim();
}
