/**
 * The `intent` of a posted form, read from a copy of the request so the form action can still
 * read the body: pages with several forms pick the form's schema by it.
 */
export async function formIntent(request: Request): Promise<string | null> {
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const intent = form?.get("intent");
  return typeof intent === "string" ? intent : null;
}
