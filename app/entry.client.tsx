import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

/**
 * A visitor who goes back or forward in history before the scripts have run (a reload, then Back
 * at once, on a slow phone) is at another address than the one this document was rendered for:
 * the router would start at that address with this page's data and fail. They are shown the page
 * they went to instead. Only the path is compared: a stored page answers several queries.
 */
const renderedPath = document.documentElement.dataset.renderedPath;
if (renderedPath !== undefined && renderedPath !== window.location.pathname) {
  window.location.reload();
} else {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}
