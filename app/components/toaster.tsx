import { useLocation, useNavigation } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState, useSyncExternalStore, type ComponentProps } from "react";
import type { Flash } from "~/utils/flash.server";

/**
 * sonner (about 9 KB compressed) is not in any page's first load: it is fetched the first time a
 * page shows a toast, and its toaster mounted then (docs/decisions/043-a-first-visit-on-a-slow-phone.md).
 * Until then nothing is shown that would need it: without JavaScript the flash message is in the
 * page; with it, a flash message on the page's first load waits the one request (an immutable,
 * cached file) for sonner, and everything else fetches it when the visitor first sends a form or
 * presses a button, before any answer could need it.
 */
type Sonner = typeof import("sonner");
let sonner: Promise<Sonner> | null = null;
const loadSonner = () => (sonner ??= import("sonner"));

/** Whether a toast has been asked for in this page's life, and so the toaster is mounted. */
let wanted = false;
const listeners = new Set<() => void>();
let markMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => (markMounted = resolve));
function want() {
  if (wanted) return;
  wanted = true;
  for (const l of listeners) l();
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

// sonner's toaster subscribes to its toasts in an effect: the wrapper's own effect runs after
// it, so a toast sent once `mounted` resolves is never sent before anyone listens
const LazySonner = lazy(() =>
  loadSonner().then(({ Toaster: SonnerToaster }) => ({
    default: function MountedSonner(props: ComponentProps<Sonner["Toaster"]>) {
      useEffect(() => markMounted(), []);
      return <SonnerToaster {...props} />;
    },
  })),
);

/** The gap between the page's header and a toast below it, in CSS pixels. */
const BELOW_HEADER_GAP = 8;

/**
 * Where a toast's top sits: just under the page's header, measured (the header is taller on a
 * phone, where its links wrap, and on a portal page than on a public one). Over the header a
 * toast hid its Menu, Notifications and Sign out for its 4 s, and sonner keeps a toast as long as
 * a pointer rests on it, so someone reaching for the Menu found a toast that did not go.
 */
function useBelowHeader(): number {
  const [top, setTop] = useState(BELOW_HEADER_GAP);
  // measured again on each page: a page of another layout draws another header, and the one
  // measured before is gone (a removed element measures 0)
  const { pathname } = useLocation();
  useEffect(() => {
    const header = document.querySelector("header");
    if (!header) return;
    const place = () => setTop(Math.ceil(header.getBoundingClientRect().height) + BELOW_HEADER_GAP);
    place();
    const observer = new ResizeObserver(place);
    observer.observe(header);
    return () => observer.disconnect();
  }, [pathname]);
  return top;
}

/**
 * Toasts sit at the top, just under the page's header: not at the bottom, where on a phone they
 * lay over the form and its button, and not over the header's links (useBelowHeader). They last
 * 4 s, at most 3 at once; sonner's defaults give the rest. A toast belongs to the page it was
 * shown on: the next navigation dismisses it (the message of a redirect is shown once that
 * navigation has loaded).
 */
export function Toaster() {
  const navigation = useNavigation();
  const top = useBelowHeader();
  const show = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  // Toasts answer what someone did: at the first form sent or button pressed the toaster is
  // fetched and mounted, so its toast shows the moment the answer comes, as when it was eager.
  useEffect(() => {
    const early = (event: Event) => {
      if (event.type === "submit" || (event.target instanceof Element && event.target.closest("button, [role=button]"))) want();
    };
    document.addEventListener("submit", early, true);
    document.addEventListener("click", early, true);
    return () => {
      document.removeEventListener("submit", early, true);
      document.removeEventListener("click", early, true);
    };
  }, []);
  useEffect(() => {
    if (navigation.state === "loading" && wanted) void loadSonner().then(({ toast }) => toast.dismiss());
  }, [navigation.state]);
  if (!show) return null;
  // Default sonner colours (dark on white) pass WCAG AA contrast; richColors does not.
  return (
    <Suspense fallback={null}>
      <LazySonner
        position="top-center"
        offset={{ top }}
        mobileOffset={{ top }}
        duration={4000}
        visibleToasts={3}
        closeButton
        toastOptions={{
          classNames: {
            success: "!border-l-4 !border-l-green-700",
            error: "!border-l-4 !border-l-red-700",
            info: "!border-l-4 !border-l-blue-700",
          },
        }}
      />
    </Suspense>
  );
}

/** A toast, once sonner has loaded and its toaster is listening. */
export function toastMessage(type: Flash["type"] | "info", message: string) {
  want();
  void Promise.all([loadSonner(), mounted]).then(([{ toast }]) => {
    if (type === "error") toast.error(message);
    else if (type === "success") toast.success(message);
    else toast(message);
  });
}

export function showToast(flash: Pick<Flash, "type" | "message">) {
  toastMessage(flash.type, flash.message);
}

/**
 * The flash message of the last redirect. Rendered in the page so it is read without
 * JavaScript; once the page is hydrated it becomes a toast instead.
 */
export function FlashMessage({ flash }: { flash: (Flash & { id: string }) | null }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (flash) showToast(flash);
  }, [flash?.id]); // eslint-disable-line react-hooks/exhaustive-deps -- one toast per message: a revalidation brings the same message in a new object
  if (!flash || hydrated) return null;
  const tone =
    flash.type === "error"
      ? "border-red-300 bg-red-50 text-red-900"
      : flash.type === "success"
        ? "border-green-300 bg-green-50 text-green-900"
        : "border-blue-300 bg-blue-50 text-blue-900";
  return (
    <div className="mx-auto max-w-6xl px-4 pt-4">
      <p role={flash.type === "error" ? "alert" : "status"} className={`rounded-md border px-4 py-3 text-sm font-semibold ${tone}`}>
        {flash.message}
      </p>
    </div>
  );
}

/** Toasts an action's message once per submission (errors that re-render the form, say). */
export function useActionToast(data: { toast?: Pick<Flash, "type" | "message">; submittedAt?: number } | undefined) {
  useEffect(() => {
    if (data?.toast) showToast(data.toast);
  }, [data]);
}
