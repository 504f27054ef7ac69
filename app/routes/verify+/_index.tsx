import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect, normaliseVerificationCode, NO_CERTIFICATE } from "~/routes/verify+/_index.server";
import { Form, useLoaderData } from "@remix-run/react";
import { Button, Card, ErrorSummary, TextField } from "~/components/ui";

/**
 * Verify a certificate: type the code printed on it. The form is a GET (looking up changes
 * nothing); a well-formed code goes to its page, anything else is "No certificate found",
 * exactly as an unknown code is.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const typed = new URL(request.url).searchParams.get("code");
  if (typed === null) return { typed: "", error: null };
  const code = normaliseVerificationCode(typed.slice(0, 100));
  if (code) throw redirect(`/verify/${code}`);
  return data(
    { typed: typed.slice(0, 100), error: typed.trim() ? NO_CERTIFICATE : "Enter the verification code printed on the certificate" },
    { status: typed.trim() ? 404 : 400 },
  );
}

export default function VerifyForm() {
  const { typed, error } = useLoaderData<typeof loader>();
  return (
    <>
      <h1 className="text-3xl font-bold text-steel-900">Verify a certificate</h1>
      <p className="mt-2 text-steel-700">
        Every statement of attainment we issue carries a verification code and a QR code. Enter the code to see whether the certificate is genuine and still
        valid.
      </p>
      <Card className="mt-6 p-5 sm:p-6">
        <Form method="get" action="/verify" className="space-y-4">
          <ErrorSummary failure={error ? { error, fieldErrors: { code: error } } : null} />
          <TextField
            label="Verification code"
            name="code"
            defaultValue={typed}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            hint="16 characters, for example ABCD-EFGH-JKLM-NPQR; hyphens and spaces are optional"
            error={error ?? undefined}
          />
          <Button type="submit">Verify</Button>
        </Form>
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Verify a certificate | Summit Crane & Rigging Training" }];
