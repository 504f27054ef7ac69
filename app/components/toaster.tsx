import { useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Toaster as Sonner, toast } from "sonner";
import type { Flash } from "~/utils/flash.server";

/**
 * Toasts sit at the top, over the page's header rather than its fields (at the bottom of a phone
 * they lay over the form and its button), last 4 s, at most 3 at once; sonner's defaults give
 * the rest. A toast belongs to the page it was shown on: the next navigation dismisses it (the
 * message of a redirect is shown once that navigation has loaded).
 */
export function Toaster() {
  const navigation = useNavigation();
  useEffect(() => {
    if (navigation.state === "loading") toast.dismiss();
  }, [navigation.state]);
  // Default sonner colours (dark on white) pass WCAG AA contrast; richColors does not.
  return (
    <Sonner
      position="top-center"
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
  );
}

export function showToast(flash: Pick<Flash, "type" | "message">) {
  if (flash.type === "error") toast.error(flash.message);
  else if (flash.type === "success") toast.success(flash.message);
  else toast(flash.message);
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
    flash.type === "error" ? "border-red-300 bg-red-50 text-red-900" : flash.type === "success" ? "border-green-300 bg-green-50 text-green-900" : "border-blue-300 bg-blue-50 text-blue-900";
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
