import { Form } from "@remix-run/react";
import { PageTitle } from "~/components/portal-shell";
import { useActionToast } from "~/components/toaster";
import { Alert, Card, SubmitButton } from "~/components/ui";
import { formatDate } from "~/utils/format";

/**
 * The private calendar feed page (learners and trainers): subscribe to the address in any
 * calendar app. The address is shown once when made; making a new one ends the old.
 */
export function CalendarFeedPage({ createdAt, result, what }: { createdAt: string | null; result?: { url: string; toast: { type: "success"; message: string } }; what: string }) {
  useActionToast(result);
  return (
    <>
      <PageTitle title="Calendar feed" subtitle={`Your ${what} in Google Calendar, Outlook or Apple Calendar`} />
      <Card className="space-y-4 p-5">
        <p className="text-sm text-steel-800">
          Subscribe to your private address in your calendar app (&ldquo;Add calendar from URL&rdquo;). Anyone with the address can see your class times, so keep it to yourself; make a new one if it gets out.
        </p>
        {result ? (
          <div className="space-y-2">
            <Alert tone="success">Your calendar address (shown once: copy it now)</Alert>
            <label htmlFor="feed-url" className="block text-sm font-semibold text-steel-800">
              Calendar address
            </label>
            <input id="feed-url" readOnly value={result.url} className="block w-full rounded-md border border-steel-300 bg-steel-50 px-3 py-2 font-mono text-xs" />
          </div>
        ) : createdAt ? (
          <p className="text-sm text-steel-700">{`You made your calendar address on ${formatDate(createdAt)}. It is not shown again; make a new one to see it (the old one stops working).`}</p>
        ) : (
          <p className="text-sm text-steel-700">You have no calendar address yet.</p>
        )}
        <Form method="post">
          <SubmitButton busyLabel="Making...">{createdAt || result ? "Make a new calendar address" : "Make my calendar address"}</SubmitButton>
        </Form>
      </Card>
    </>
  );
}
