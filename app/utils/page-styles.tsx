import { createContext, useContext } from "react";

/**
 * The site's stylesheet, in the document itself rather than a request before the first text
 * (docs/decisions/043-a-first-visit-on-a-slow-phone.md). The server reads the built stylesheet
 * once and provides its text for every render (entry.server.tsx); in the browser the text is
 * the one the server put in the document, read before hydration, so hydration finds the same
 * element and a later render (an error page replacing the document's tree) keeps it. Without
 * the text (a build without the file) the page links the stylesheet as before.
 */
const StylesContext = createContext<string | null>(null);
export const StylesProvider = StylesContext.Provider;

export const PAGE_STYLES_ID = "page-styles";

const fromDocument = typeof document === "undefined" ? null : (document.getElementById(PAGE_STYLES_ID)?.textContent ?? null);

export function PageStyles({ href }: { href: string }) {
  const server = useContext(StylesContext);
  const css = server ?? fromDocument;
  // the site's own built stylesheet, not user content
  if (css !== null) return <style id={PAGE_STYLES_ID} dangerouslySetInnerHTML={{ __html: css }} />;
  return <link rel="stylesheet" href={href} />;
}
