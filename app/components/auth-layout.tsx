import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Logo } from "./logo";

/** The frame of the sign-in and registration pages. */
export function AuthLayout({ title, subtitle, children, wide = false }: { title: string; subtitle: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className="min-h-screen bg-gradient-to-b from-steel-900 to-steel-800 px-3 py-8 sm:py-12">
      <main id="main" className={`mx-auto ${wide ? "max-w-2xl" : "max-w-md"}`}>
        <div className="mb-6 flex justify-center">
          <Logo inverse />
        </div>
        <div className="rounded-xl bg-white p-5 shadow-xl sm:p-8">
          <h1 className="text-2xl font-bold text-steel-900">{title}</h1>
          <p className="mt-1 text-sm text-steel-600">{subtitle}</p>
          <div className="mt-6">{children}</div>
        </div>
        <p className="mt-6 text-center">
          <Link to="/" className="rounded text-sm font-semibold text-steel-100 underline-offset-4 hover:underline">
            Back to Home
          </Link>
        </p>
      </main>
    </div>
  );
}
