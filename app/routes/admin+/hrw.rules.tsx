import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, listRules, type HrwRule, editRule, answerForm, redirectWithFlash, clientAddress } from "~/routes/admin+/hrw.rules.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Badge, SelectField, SubmitButton, TextAreaField, TextField, TitledCard, ErrorSummary } from "~/components/ui";
import { ruleEditSchema } from "~/schemas/hrw";
import { HRW_RULES, HRW_STATES, hrwDate, type HrwRuleName, type HrwState } from "~/schemas/hrw-codes";
import { organisationToday } from "~/utils/organisation-calendar";

export const RULE_SAVED = "Rule saved";

/**
 * Each state's high-risk work rules with their sources: the value in force today, what comes
 * into force later and what held before. An edit is a new value from a date, with the reason;
 * earlier values stay, and records are judged by the value in force on their own day.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const today = organisationToday();
  return { today, rules: await listRules(getDb(), today) };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  return answerForm(request, {
    schema: ruleEditSchema,
    save: async (input) => {
      await editRule(getDb(), input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash("/admin/hrw/rules", {
        type: "success",
        message: `${RULE_SAVED}: ${input.state}, ${HRW_RULES[input.rule].label}, from ${hrwDate(input.in_force_from)}`,
      });
    },
  });
}

function valueWords(rule: Pick<HrwRule, "rule" | "value" | "unit">): string {
  const kind = HRW_RULES[rule.rule]?.kind;
  if (rule.value === "") return "Not set";
  if (kind === "flag") return rule.value === "yes" ? "Yes" : "No";
  if (kind === "month_day") return hrwDate(`2000-${rule.value}`).replace(/ 2000$/, "");
  if (kind === "pattern") return rule.value;
  return `${rule.value}${rule.unit ? ` ${rule.unit}` : ""}`;
}

const fromWords = (r: HrwRule) => (r.in_force_from ? `from ${hrwDate(r.in_force_from)}` : "since before the portal's records");

function RuleHistoryLine({ r }: { r: HrwRule }) {
  return (
    <li>
      <span className="font-semibold">{valueWords(r)}</span> {fromWords(r)}
      {r.reason ? (
        <>
          . Reason: {r.reason}
          {r.recorded_by ? ` (${r.recorded_by})` : ""}
        </>
      ) : null}
    </li>
  );
}

export default function HrwRules() {
  const { rules, today } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const v: Record<string, string> = data?.values ?? {};
  const failedKey = data?.error ? `${v.state}:${v.rule}` : null;
  const states = [...new Set(rules.map((r) => r.state))];
  return (
    <>
      <PageTitle
        title="High-risk work rules by state"
        subtitle={
          <Link to="/admin/reports/hrw" className="underline">
            HRW assessment audit
          </Link>
        }
      />
      <p className="mb-4 max-w-3xl text-sm text-steel-700">
        Each rule shows its source. Rules marked <q>secondary source</q> come from an RTO&apos;s or consultant&apos;s copy: defaults to confirm with the
        regulator. A change takes effect from the date you give; records before that date keep the rule of their day.
      </p>
      <div className="space-y-6">
        {states.map((state) => (
          <TitledCard key={state} title={`${state}: ${HRW_STATES[state as HrwState] ?? state}`}>
            <ul className="divide-y divide-steel-100">
              {rules
                .filter((r) => r.state === state)
                .map((r) => {
                  const key = `${r.state}:${r.rule}`;
                  const failed = failedKey === key;
                  const kind = HRW_RULES[r.rule as HrwRuleName].kind;
                  const formId = `rule-${r.state}-${r.rule}`;
                  return (
                    <li key={key} className="py-3">
                      <h3 className="text-sm font-semibold text-steel-900">{r.label}</h3>
                      <p className="mt-1 break-words text-sm">
                        {r.current ? (
                          <>
                            <span className="font-semibold">{valueWords(r.current)}</span> {fromWords(r.current)}
                          </>
                        ) : (
                          "Not in force yet"
                        )}{" "}
                        {r.current?.secondary ? <Badge tone="amber">Secondary source</Badge> : null}
                      </p>
                      {r.current ? <p className="mt-1 break-words text-xs text-steel-600">Source: {r.current.source}</p> : null}
                      {r.upcoming.length ? (
                        <ul className="mt-1 text-xs text-steel-700">
                          {r.upcoming.map((u) => (
                            <RuleHistoryLine key={u.id} r={u} />
                          ))}
                        </ul>
                      ) : null}
                      {r.earlier.length ? (
                        <details className="mt-1 text-xs text-steel-700">
                          <summary className="cursor-pointer">Earlier values ({r.earlier.length})</summary>
                          <ul className="mt-1 space-y-1">
                            {r.earlier.map((e) => (
                              <RuleHistoryLine key={e.id} r={e} />
                            ))}
                          </ul>
                        </details>
                      ) : null}
                      <details className="mt-2" open={failed}>
                        <summary className="cursor-pointer text-sm underline">
                          Change {r.state} {r.label.toLowerCase()}
                        </summary>
                        <Form method="post" noValidate className="mt-2 grid gap-3 sm:grid-cols-2" id={formId}>
                          {failed ? (
                            <div className="sm:col-span-2">
                              <ErrorSummary
                                failure={data}
                                fieldIds={{ value: `${formId}-value`, in_force_from: `${formId}-from`, reason: `${formId}-reason`, source: `${formId}-source` }}
                              />
                            </div>
                          ) : null}
                          <input type="hidden" name="state" value={r.state} />
                          <input type="hidden" name="rule" value={r.rule} />
                          {kind === "flag" ? (
                            <SelectField
                              label="New value"
                              name="value"
                              id={`${formId}-value`}
                              defaultValue={failed ? v.value : (r.current?.value ?? "")}
                              error={failed ? data?.fieldErrors?.value : undefined}
                              options={[
                                { value: "yes", label: "Yes" },
                                { value: "no", label: "No" },
                              ]}
                            />
                          ) : (
                            <TextField
                              label={`New value${r.current?.unit && kind === "number" ? ` (${r.current.unit})` : ""}`}
                              name="value"
                              id={`${formId}-value`}
                              inputMode={kind === "number" ? "numeric" : undefined}
                              defaultValue={failed ? v.value : (r.current?.value ?? "")}
                              error={failed ? data?.fieldErrors?.value : undefined}
                              hint={kind === "number" ? "Blank: the state does not set this rule" : kind === "month_day" ? "MM-DD" : undefined}
                            />
                          )}
                          <TextField
                            label="In force from"
                            name="in_force_from"
                            id={`${formId}-from`}
                            type="date"
                            defaultValue={failed ? v.in_force_from : today}
                            error={failed ? data?.fieldErrors?.in_force_from : undefined}
                          />
                          <TextAreaField
                            label="Reason for the change"
                            name="reason"
                            id={`${formId}-reason`}
                            rows={2}
                            className="sm:col-span-2"
                            defaultValue={failed ? v.reason : undefined}
                            error={failed ? data?.fieldErrors?.reason : undefined}
                          />
                          <TextField
                            label="New source (optional)"
                            name="source"
                            id={`${formId}-source`}
                            className="sm:col-span-2"
                            defaultValue={failed ? v.source : undefined}
                            error={failed ? data?.fieldErrors?.source : undefined}
                            hint="Blank: the current source stays"
                          />
                          <div className="sm:col-span-2">
                            <SubmitButton variant="secondary" busyLabel="Saving...">
                              Save {r.state} rule
                            </SubmitButton>
                          </div>
                        </Form>
                      </details>
                    </li>
                  );
                })}
            </ul>
          </TitledCard>
        ))}
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "High-risk work rules by state | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="High-risk work rules by state" message="Failed to load the rules" />;
}
