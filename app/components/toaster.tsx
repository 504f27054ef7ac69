import { useEffect, useState } from "react";
import { Toaster as Sonner, toast } from "sonner";
import type { Flash } from "~/utils/flash.server";

/** Toasts sit bottom-right, last 4 s, at most 3 at once; sonner's defaults give the rest. */
export function Toaster() {
  // Default sonner colours (dark on white) pass WCAG AA contrast; richColors does not.
  return (
    <Sonner
      position="bottom-right"
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
