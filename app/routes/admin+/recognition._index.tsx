import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { queryObject, requireRole, getDb, listRecognitions } from "~/routes/admin+/recognition._index.server";
import { PageTitle } from "~/components/portal-shell";
import { RecognitionFilters } from "~/components/recognition/recognition-filters";
import { RecognitionTable } from "~/components/recognition/recognition-table";
import { RouteError } from "~/components/route-error";
import { TitledCard } from "~/components/ui";
import { recognitionListQuery } from "~/schemas/recognition";

/**
 * The register of recognitions: administrators every credit transfer and RPL application;
 * trainers (trainer.recognition._index re-exports this page) the RPLs they assess. The model
 * scopes the rows in SQL; the CSV takes the same filters.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin", "trainer");
  const raw = queryObject(request);
  const parsed = recognitionListQuery.safeParse(raw);
  const base = user.role === "admin" ? "/admin/recognition" : "/trainer/recognition";
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    return {
      items: [],
      base,
      admin: user.role === "admin",
      values: raw,
      failure: { error: "Please correct the filters", fieldErrors, submittedAt: 0 },
      query: "",
    };
  }
  const items = await listRecognitions(getDb(), user, parsed.data);
  return { items, base, admin: user.role === "admin", values: raw, failure: null, query: new URL(request.url).search };
}

export default function RecognitionRegister() {
  const { items, base, admin, values, failure, query } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title={admin ? "Register of recognitions" : "RPL to assess"}
        subtitle={admin ? "Every credit transfer and RPL application, newest first" : "The RPL applications an administrator assigned to you"}
        actions={
          <a href={`/recognition.csv${query}`} className="underline">
            Download CSV
          </a>
        }
      />
      <div className="grid gap-6">
        <TitledCard title="Filter">
          <RecognitionFilters values={values} failure={failure} search />
        </TitledCard>
        <TitledCard title={`${items.length} application${items.length === 1 ? "" : "s"}`}>
          <RecognitionTable items={items} base={base} showLearner />
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Register of recognitions" }];

export function ErrorBoundary() {
  return <RouteError title="Register of recognitions" message="Failed to load the register" />;
}
