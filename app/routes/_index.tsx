import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { getOptionalUser } from "~/auth/guards.server";
import { SiteHeader } from "~/components/site-header";

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getOptionalUser(request)) throw redirect("/dashboard");
  return null;
}

export default function Landing() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-16">
        <h1 className="text-4xl font-bold">Crane and rigging training</h1>
        <p className="mt-4">
          <Link to="/courses">View Courses</Link>
        </p>
      </main>
    </>
  );
}
