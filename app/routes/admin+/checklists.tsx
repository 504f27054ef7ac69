import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  checklistCourses,
  listChecklists,
  reviewChecklist,
  saveChecklist,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
} from "~/routes/admin+/checklists.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Alert, SubmitButton, TextField, TitledCard } from "~/components/ui";
import { checklistSchema } from "~/schemas/evidence";
import { uuid } from "~/schemas/fields";
import { formatDateTime } from "~/utils/format";
import { z } from "zod";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

/** Observation checklists per course: admins write them and review each before it is used. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const [checklists, courses] = await Promise.all([listChecklists(db), checklistCourses(db)]);
  return { checklists, courses };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "admin");
  const db = getDb();
  const actor = { id: user.id, client: clientAddress(request) };
  const common = { invalid: FIX_HIGHLIGHTED_FIELDS };
  switch (await formIntent(request)) {
    case "save":
      return answerForm(request, {
        ...common,
        schema: checklistSchema,
        save: async (input) => (
          await saveChecklist(db, input, actor),
          redirectWithFlash("/admin/checklists", { type: "success", message: "Checklist saved; review it before use" })
        ),
      });
    case "review":
      return answerForm(request, {
        ...common,
        schema: z.object({ id: uuid }),
        save: async (input) => (
          await reviewChecklist(db, input.id, actor),
          redirectWithFlash("/admin/checklists", { type: "success", message: "Checklist reviewed before use" })
        ),
      });
    default:
      return formFailure(FORM_UNREADABLE);
  }
}

export default function ChecklistsPage() {
  const { checklists, courses } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const saving = data?.values?.intent === "save";
  return (
    <>
      <PageTitle
        title="Observation checklists"
        subtitle="Per course; each item mapped to the unit's element or performance criterion (and the NAI part for licence courses)"
      />
      <div className="grid gap-6">
        {checklists.map((c) => (
          <TitledCard key={c.id} title={`${c.title} (${c.course.unit_code})`}>
            <p className="mb-2 text-sm">
              {c.reviewed_at ? `Reviewed before use ${formatDateTime(c.reviewed_at)}` : "Not reviewed yet: trainers cannot use it until it is."}
            </p>
            <ol className="list-decimal space-y-1 pl-5 text-sm">
              {c.items.map((i) => (
                <li key={i.id}>
                  {i.text}{" "}
                  <span className="text-steel-600">
                    ({i.maps_to}
                    {i.nai_part ? `, NAI ${i.nai_part}` : ""})
                  </span>
                </li>
              ))}
            </ol>
            {!c.reviewed_at ? (
              <Form method="post" className="mt-3">
                <input type="hidden" name="id" value={c.id} />
                <SubmitButton intent="review" busyLabel="Saving...">
                  Mark reviewed before use
                </SubmitButton>
              </Form>
            ) : null}
          </TitledCard>
        ))}
        <TitledCard title="New checklist">
          <Form method="post" noValidate className="space-y-3">
            {saving && data?.error ? <Alert>{data.error}</Alert> : null}
            <div>
              <label htmlFor="checklist-course" className="mb-1 block text-sm font-semibold text-steel-800">
                Course
              </label>
              <select
                id="checklist-course"
                name="course_id"
                className="block w-full rounded-md border border-steel-300 px-3 py-2"
                defaultValue={saving ? data?.values?.course_id : undefined}
              >
                {courses.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.unit_code})
                  </option>
                ))}
              </select>
            </div>
            <TextField
              label="Title"
              name="title"
              required
              error={saving ? data?.fieldErrors?.title : undefined}
              defaultValue={saving ? data?.values?.title : undefined}
            />
            <div>
              <label htmlFor="checklist-items" className="mb-1 block text-sm font-semibold text-steel-800">
                Items
              </label>
              <textarea
                id="checklist-items"
                name="items"
                rows={6}
                className="block w-full rounded-md border border-steel-300 px-3 py-2 text-sm"
                aria-describedby={saving && data?.fieldErrors?.items ? "checklist-items-error checklist-items-hint" : "checklist-items-hint"}
                aria-invalid={saving && data?.fieldErrors?.items ? true : undefined}
                defaultValue={saving ? data?.values?.items : undefined}
              />
              <p id="checklist-items-hint" className="mt-1 text-xs text-steel-500">
                One a line: maps to | what is observed | NAI part (licence courses), e.g. PC 2.3 | Checks the load chart for the radius | practical
              </p>
              {saving && data?.fieldErrors?.items ? (
                <p id="checklist-items-error" className="mt-1 text-sm text-red-700">
                  {data.fieldErrors.items}
                </p>
              ) : null}
            </div>
            <SubmitButton intent="save" busyLabel="Saving...">
              Save checklist
            </SubmitButton>
          </Form>
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Observation checklists | Admin" }];

export function ErrorBoundary() {
  return <RouteError title="Observation checklists" message="Failed to load the checklists" />;
}
