import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

/**
 * A visitor who goes back or forward in history before the scripts have run (a reload, then Back
 * at once, on a slow phone) is at another address than the one this document was rendered for:
 * the router would start at that address with this page's data and fail. They are shown the page
 * they went to instead. Only the path is compared: a stored page answers several queries. Should
 * a page ever name a path the browser spells otherwise, it is reloaded once, not forever.
 */
const RELOADED = "portal:reloaded-for";
const renderedPath = document.documentElement.dataset.renderedPath;
const here = window.location.pathname;

/** Whether to load `here` afresh: marks it so the next document for it is hydrated whatever it says. */
function reloadOnce(): boolean {
  try {
    const already = sessionStorage.getItem(RELOADED) === here;
    sessionStorage.removeItem(RELOADED);
    if (renderedPath === undefined || renderedPath === here || already) return false;
    sessionStorage.setItem(RELOADED, here);
    return true;
  } catch {
    // no storage (a private window that refuses it): no guard against a loop, so no reload
    return false;
  }
}

if (reloadOnce()) {
  window.location.reload();
} else {
  // Back or forward after this check but before the router has started: the same, as it happens
  // (once the router runs, it takes history moves itself; a jump to #main changes no path).
  const routerStarted = () => "__remixRouter" in window;
  const moveAway = () => {
    if (routerStarted()) return window.removeEventListener("popstate", moveAway);
    if (renderedPath !== undefined && window.location.pathname !== renderedPath) window.location.reload();
  };
  window.addEventListener("popstate", moveAway);
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}
