import { Form } from "@remix-run/react";
import { PageTitle } from "~/components/portal-shell";
import { toastMessage, useActionToast } from "~/components/toaster";
import { Alert, Button, Card, SubmitButton } from "~/components/ui";
import { formatDate } from "~/utils/format";
import { useHydrated } from "~/utils/use-hydrated";

/** What the page's action answers: the address just made, or why none was made. */
export type CalendarFeedResult = { url: string; toast: { type: "success"; message: string } } | { error: string; toast?: { type: "error"; message: string } };

const COPIED = "Calendar address copied";
const COPY_FAILED = "Could not copy: select the address and copy it yourself";

/**
 * The private calendar feed page (learners and trainers): subscribe to the address in any
 * calendar app. The address is stored hashed, so it is shown whole once, when made, with a copy
 * button (with JavaScript; without, the field selects like any text) and a subscribe link. Making
 * a new address ends the old one, so it sits apart, behind a step that says so.
 */
export function CalendarFeedPage({ createdAt, result, what }: { createdAt: string | null; result?: CalendarFeedResult; what: string }) {
  useActionToast(result);
  const hydrated = useHydrated();
  const made = result && "url" in result ? result : null;
  const failed = result && "error" in result ? result.error : null;
  const exists = made !== null || createdAt !== null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(made?.url ?? "");
      toastMessage("success", COPIED);
    } catch {
      toastMessage("error", COPY_FAILED);
    }
  }

  return (
    <>
      <PageTitle title="Calendar feed" subtitle={`Your ${what} in Google Calendar, Outlook or Apple Calendar`} />
      <Card className="space-y-4 p-5">
        <p className="text-sm text-steel-800">
          Subscribe to your private address in your calendar app (&ldquo;Add calendar from URL&rdquo;). Anyone with the address can see your class times, so
          keep it to yourself.
        </p>
        {failed ? <Alert>{failed}</Alert> : null}
        {made ? (
          <div className="space-y-2">
            <Alert tone="success">{`${made.toast.message}. It is shown only this once: copy it now.`}</Alert>
            <label htmlFor="feed-url" className="block text-sm font-semibold text-steel-800">
              Calendar address
            </label>
            <textarea
              id="feed-url"
              readOnly
              rows={3}
              value={made.url}
              onFocus={(e) => e.currentTarget.select()}
              className="block w-full resize-none break-all rounded-md border border-steel-300 bg-steel-50 px-3 py-2 font-mono text-sm text-steel-900"
            />
            <div className="flex flex-wrap gap-3">
              {hydrated ? (
                <Button type="button" onClick={copy}>
                  Copy the address
                </Button>
              ) : null}
              <a
                href={made.url.replace(/^https?:/, "webcal:")}
                className="inline-flex min-h-11 items-center text-sm font-semibold text-hivis-800 underline underline-offset-4"
              >
                Subscribe in my calendar app
              </a>
            </div>
          </div>
        ) : createdAt ? (
          <p className="text-sm text-steel-700">{`You made your calendar address on ${formatDate(createdAt)}. It keeps working; for your privacy it is not shown again.`}</p>
        ) : (
          <>
            <p className="text-sm text-steel-700">You have no calendar address yet.</p>
            <Form method="post">
              <SubmitButton intent="make" busyLabel="Making...">
                Make my calendar address
              </SubmitButton>
            </Form>
          </>
        )}
        {exists ? (
          <details className="rounded-md border border-steel-200 p-3">
            <summary className="min-h-11 cursor-pointer py-2 text-sm font-semibold text-steel-900">Make a new address</summary>
            <div className="mt-2 space-y-3">
              <p id="replace-warning" className="text-sm text-steel-800">
                Your current address stops working at once: calendars subscribed to it stop showing your classes until you add the new one. Do this if the
                address got out or you lost it.
              </p>
              <Form method="post">
                <SubmitButton intent="replace" variant="danger" busyLabel="Making..." aria-describedby="replace-warning">
                  End the old address and make a new one
                </SubmitButton>
              </Form>
            </div>
          </details>
        ) : null}
      </Card>
    </>
  );
}
