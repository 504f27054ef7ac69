import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useRevalidator } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
import {
  requireRole,
  getDb,
  getFileStore,
  BAD_UPLOAD_MESSAGE,
  BadUpload,
  isMultipart,
  readUpload,
  clientAddress,
  addEvidence,
  assessmentFor,
  listEvidence,
  listSignatures,
  mayAssess,
  signAssessment,
  checklistsForAssessment,
  markChecklist,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
} from "~/routes/trainer+/evidence.$kind.$id.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { showToast, useActionToast } from "~/components/toaster";
import { Alert, SubmitButton, TextField, TitledCard, TAP_LINK } from "~/components/ui";
import { cn } from "~/utils/cn";
import { EVIDENCE_ACCEPT, EVIDENCE_MEDIA_TYPES, isEvidenceMediaType } from "~/files/types";
import { decisionRefSchema, checklistMarksInput, checklistMarksSchema, signatureSchema } from "~/schemas/evidence";
import { CHECKLIST_RESULTS } from "~/schemas/evidence-text";
import { isDomainError } from "~/utils/errors";
import { formatDateTime } from "~/utils/format";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

export const EVIDENCE_ADDED = "Evidence added";
export const SIGNED = "Declaration signed";
export const CHECKLIST_MARKED = "Checklist marked";

async function load(request: Request, params: LoaderFunctionArgs["params"]) {
  const user = await requireRole(request, "trainer", "admin");
  const ref = decisionRefSchema.safeParse(params);
  if (!ref.success) throw new Response("Assessment not found", { status: 404 });
  try {
    return { user, assessment: await assessmentFor(getDb(), user, ref.data) };
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw new Response("Assessment not found", { status: 404 });
    throw error;
  }
}

/**
 * An assessment's evidence: the files attached (photos, documents, video), and the assessor's
 * and candidate's declarations. Its assessor adds to it; admins read it; any other trainer is
 * told it does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, assessment } = await load(request, params);
  const db = getDb();
  const [files, signatures, checklists] = await Promise.all([
    listEvidence(db, assessment),
    listSignatures(db, assessment),
    checklistsForAssessment(db, assessment),
  ]);
  return { assessment, files, signatures, checklists, mine: mayAssess(user, assessment) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, assessment } = await load(request, params);
  const db = getDb();
  const actor = { id: user.id, client: clientAddress(request) };
  const here = new URL(request.url).pathname;
  if (isMultipart(request)) {
    // the upload form: its files stream to disk as they arrive (app/files/upload.server.ts)
    let read: Awaited<ReturnType<typeof readUpload>>;
    try {
      read = await readUpload(request);
    } catch (error) {
      if (error instanceof BadUpload) return formFailure(BAD_UPLOAD_MESSAGE, { values: { intent: "upload" } });
      throw error;
    }
    try {
      const added = await addEvidence(db, getFileStore(), { assessment, actor, files: read.files, dir: read.dir, tooMany: read.tooMany });
      return redirectWithFlash(here, { type: "success", message: `${EVIDENCE_ADDED}: ${added.length} file${added.length === 1 ? "" : "s"}` });
    } catch (error) {
      if (!isDomainError(error)) throw error;
      return formFailure(error.message, { status: error.status, fieldErrors: error.fieldErrors, values: { intent: "upload" } });
    } finally {
      read.dispose();
    }
  }
  const common = { invalid: FIX_HIGHLIGHTED_FIELDS };
  switch (await formIntent(request)) {
    case "checklist":
      return answerForm(request, {
        ...common,
        schema: checklistMarksSchema,
        input: checklistMarksInput,
        save: async (input) => (
          await markChecklist(db, { assessment, ...input }, actor),
          redirectWithFlash(here, { type: "success", message: CHECKLIST_MARKED })
        ),
      });
    case "sign":
      return answerForm(request, {
        ...common,
        schema: signatureSchema,
        save: async (input) => {
          await signAssessment(db, { assessment, role: input.role, full_name: input.full_name, userAgent: request.headers.get("User-Agent"), actor });
          return redirectWithFlash(here, { type: "success", message: SIGNED });
        },
      });
    default:
      return formFailure(FORM_UNREADABLE);
  }
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The upload form. Without JavaScript it is a plain multipart POST. With JavaScript the chosen
 * files show as thumbnails, and the same POST goes by XMLHttpRequest so its progress shows.
 */
function UploadForm({ error }: { error?: string }) {
  const [previews, setPreviews] = useState<{ name: string; url: string | null }[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  const revalidator = useRevalidator();
  const shown = problem ?? error;
  const choose = () => {
    for (const p of previews) if (p.url) URL.revokeObjectURL(p.url);
    const files = Array.from(input.current?.files ?? []);
    setPreviews(files.map((f) => ({ name: f.name, url: f.type.startsWith("image/") ? URL.createObjectURL(f) : null })));
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${new URL(form.action, window.location.href).pathname.replace(/\/$/, "")}/upload`);
    xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      setProgress(null);
      let body: { message?: string; error?: string; fieldErrors?: Record<string, string> } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = { error: "The upload failed; please try again" };
      }
      if (xhr.status === 200 && body.message) {
        setProblem(undefined);
        setPreviews([]);
        form.reset();
        showToast({ type: "success", message: body.message });
        revalidator.revalidate();
      } else {
        const message = body.fieldErrors?.files ?? body.error ?? "The upload failed; please try again";
        setProblem(message);
        showToast({ type: "error", message });
      }
    };
    xhr.onerror = () => {
      setProgress(null);
      setProblem("The upload failed; please check the connection and try again");
    };
    setProgress(0);
    xhr.send(new FormData(form));
  };
  return (
    <Form method="post" encType="multipart/form-data" onSubmit={submit} className="space-y-3">
      <div>
        <label htmlFor="evidence-files" className="mb-1 block text-sm font-semibold text-steel-800">
          Photos and documents
        </label>
        <input
          ref={input}
          id="evidence-files"
          name="files"
          type="file"
          multiple
          accept={EVIDENCE_ACCEPT}
          onChange={choose}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? "evidence-files-error evidence-files-hint" : "evidence-files-hint"}
          className="block min-h-11 w-full max-w-full text-sm file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-md file:border file:border-steel-300 file:bg-white file:px-4 file:font-semibold file:text-steel-800"
        />
        <p id="evidence-files-hint" className="mt-1 text-xs text-steel-500">
          JPEG, PNG, HEIC, PDF or MP4, at most 25 MB each. Location data is removed from photos.
        </p>
        {shown ? (
          <p id="evidence-files-error" className="mt-1 text-sm text-red-700" role="alert">
            {shown}
          </p>
        ) : null}
      </div>
      {previews.length ? (
        <ul className="flex flex-wrap gap-2" aria-label="Chosen files">
          {previews.map((p, i) => (
            <li key={`${p.name}-${i}`} className="w-24 text-xs">
              {p.url ? <img src={p.url} alt={`Chosen: ${p.name}`} className="h-20 w-24 rounded object-cover" /> : null}
              <span className="block truncate">{p.name}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {progress !== null ? (
        <div>
          <label htmlFor="evidence-progress" className="block text-sm">
            Uploading: {progress}%
          </label>
          <progress id="evidence-progress" max={100} value={progress} className="w-full" />
        </div>
      ) : null}
      <SubmitButton busyLabel="Uploading..." disabled={progress !== null}>
        Upload evidence
      </SubmitButton>
    </Form>
  );
}

export default function EvidencePage() {
  const { assessment: a, files, signatures, checklists, mine } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data && "toast" in data ? data : undefined);
  const failure = data && "fieldErrors" in data ? data : undefined;
  const signFailed = failure?.values?.intent === "sign";
  const signed = new Map(signatures.map((s) => [s.role, s]));
  // the same page serves the admin portal (admin.evidence.$kind.$id.tsx): back to where each came from
  const admin = useLocation().pathname.startsWith("/admin/");
  const back =
    a.kind === "recognition"
      ? `/${admin ? "admin" : "trainer"}/recognition/${a.id}`
      : admin
        ? `/admin/students/${a.student.id}`
        : a.kind === "hrw"
          ? `/trainer/hrw/${a.id}`
          : "/trainer/assessments";
  return (
    <>
      <PageTitle
        title={`Evidence: ${a.title}`}
        subtitle={
          <Link to={back} className="underline">
            {admin ? "Back to the student" : "Back to the assessment"}
          </Link>
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <TitledCard title="Assessment">
          <dl className="grid grid-cols-[auto,1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold">Candidate</dt>
            <dd>{a.student.full_name}</dd>
            <dt className="font-semibold">Course</dt>
            <dd>
              {a.course.name} ({a.course.unit_code})
            </dd>
            <dt className="font-semibold">Assessor</dt>
            <dd>{a.assessor?.full_name ?? "Not recorded"}</dd>
          </dl>
        </TitledCard>
        {checklists.map(({ checklist: c, marks }) => {
          const markOf = new Map(marks.map((m) => [m.item_id, m]));
          const failedHere = failure?.values?.intent === "checklist" && failure.values.checklist_id === c.id;
          const usable = mine && c.reviewed_at;
          return (
            <TitledCard key={c.id} title={`Checklist: ${c.title}`}>
              {!c.reviewed_at ? <p className="mb-2 text-sm">Not reviewed before use yet: it cannot be marked.</p> : null}
              <Form method="post" noValidate className="space-y-4">
                <input type="hidden" name="checklist_id" value={c.id} />
                {failedHere && failure?.error ? <Alert>{failure.error}</Alert> : null}
                {c.items.map((item) => {
                  const mark = markOf.get(item.id);
                  const error = failedHere ? failure?.fieldErrors?.[`result_${item.id}`] : undefined;
                  const chosen = failedHere ? failure?.values?.[`result_${item.id}`] : mark?.result;
                  return (
                    <fieldset key={item.id} className="rounded border border-steel-200 p-3" aria-describedby={error ? `err-${item.id}` : undefined}>
                      <legend className="px-1 text-sm font-semibold">
                        {item.text}{" "}
                        <span className="font-normal text-steel-600">
                          ({item.maps_to}
                          {item.nai_part ? `, NAI ${item.nai_part}` : ""})
                        </span>
                      </legend>
                      {usable ? (
                        <>
                          <div className="flex flex-wrap gap-4 text-sm">
                            {(Object.keys(CHECKLIST_RESULTS) as (keyof typeof CHECKLIST_RESULTS)[]).map((r) => (
                              <label key={r} className="flex items-center gap-1">
                                <input type="radio" name={`result_${item.id}`} value={r} defaultChecked={chosen === r} /> {CHECKLIST_RESULTS[r]}
                              </label>
                            ))}
                          </div>
                          {error ? (
                            <p id={`err-${item.id}`} className="text-sm text-red-700">
                              {error}
                            </p>
                          ) : null}
                          <TextField
                            label="Comment"
                            name={`comment_${item.id}`}
                            defaultValue={(failedHere ? failure?.values?.[`comment_${item.id}`] : mark?.comment) ?? undefined}
                          />
                        </>
                      ) : (
                        <p className="text-sm">{mark ? `${CHECKLIST_RESULTS[mark.result]}${mark.comment ? `: ${mark.comment}` : ""}` : "Not marked"}</p>
                      )}
                    </fieldset>
                  );
                })}
                {usable ? (
                  <SubmitButton intent="checklist" busyLabel="Saving...">
                    Save checklist marks
                  </SubmitButton>
                ) : null}
              </Form>
            </TitledCard>
          );
        })}
        <TitledCard title="Files">
          {files.length === 0 ? <p className="text-sm text-steel-600">No evidence attached yet.</p> : null}
          <ul className="space-y-2" aria-label="Evidence files">
            {files.map((f) => (
              <li key={f.id} className="flex items-center gap-3 text-sm">
                {f.thumbnail_sha256 ? <img src={`/evidence/${f.id}/download?thumbnail=1`} alt="" className="h-12 w-16 shrink-0 rounded object-cover" /> : null}
                <span className="min-w-0 break-words">
                  <a href={`/evidence/${f.id}/download`} className={cn(TAP_LINK, "font-semibold underline")}>
                    {f.original_name}
                  </a>{" "}
                  <span className="text-steel-600">
                    {isEvidenceMediaType(f.media_type) ? EVIDENCE_MEDIA_TYPES[f.media_type].label : f.media_type}, {sizeText(f.size_bytes)},{" "}
                    {formatDateTime(f.uploaded_at)} by {f.uploaded_by.full_name}
                  </span>
                </span>
              </li>
            ))}
          </ul>
          {mine ? (
            <div className="mt-4">
              <UploadForm error={failure?.values?.intent === "upload" ? (failure.fieldErrors?.files ?? failure.error) : undefined} />
            </div>
          ) : null}
        </TitledCard>
        <TitledCard title="Declarations">
          <ul className="mb-3 space-y-1 text-sm">
            {(["assessor", "candidate"] as const).map((role) => {
              const s = signed.get(role);
              return (
                <li key={role}>
                  <span className="font-semibold">{role === "assessor" ? "Assessor" : "Candidate"}:</span>{" "}
                  {s ? `signed by ${s.full_name}, ${formatDateTime(s.signed_at)}` : "not signed yet"}
                </li>
              );
            })}
          </ul>
          {mine
            ? (["assessor", "candidate"] as const)
                .filter((role) => !signed.has(role))
                .map((role) => (
                  <Form key={role} method="post" noValidate className="mb-4 space-y-2">
                    <input type="hidden" name="role" value={role} />
                    {signFailed && failure?.values?.role === role && failure.error ? <Alert>{failure.error}</Alert> : null}
                    <TextField
                      label={role === "assessor" ? "Assessor's full name" : "Candidate's full name"}
                      name="full_name"
                      autoComplete="off"
                      required
                      hint={
                        role === "assessor"
                          ? "I declare that I assessed this candidate against the unit's requirements and that the evidence is theirs."
                          : "I declare that the evidence is my own work and that I was told the result and my right to appeal. The candidate types their name here, or signs later from their own login."
                      }
                      error={signFailed && failure?.values?.role === role ? failure.fieldErrors?.full_name : undefined}
                      defaultValue={signFailed && failure?.values?.role === role ? failure.values.full_name : undefined}
                    />
                    <SubmitButton intent="sign" busyLabel="Signing...">
                      {role === "assessor" ? "Sign as assessor" : "Sign as candidate"}
                    </SubmitButton>
                  </Form>
                ))
            : null}
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Assessment evidence | Trainer Portal" }];

export function ErrorBoundary() {
  return <RouteError title="Assessment evidence" message="Failed to load the assessment's evidence" />;
}
