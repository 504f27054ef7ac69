import { Link } from "@remix-run/react";
import { buttonClasses } from "~/components/ui";
import { ArrowRightIcon, KeyIcon, ShieldCheckIcon, TowerCraneArt } from "./icons";

/** The opening of the landing page: what we teach, for whom, and the two ways in. */
export function Hero({ rtoCode }: { rtoCode: string }) {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden bg-steel-950 text-white">
      <div
        aria-hidden
        className="absolute inset-0 opacity-[0.07] [background-image:linear-gradient(#fff_1px,transparent_1px),linear-gradient(90deg,#fff_1px,transparent_1px)] [background-size:48px_48px]"
      />
      <div aria-hidden className="absolute inset-x-0 bottom-0 h-2 bg-[repeating-linear-gradient(135deg,#f07a0b_0_18px,#0e1622_18px_36px)]" />
      <div className="relative mx-auto grid max-w-6xl items-center gap-10 px-4 pb-16 pt-12 sm:pt-16 lg:grid-cols-[1.1fr_0.9fr] lg:pb-24 lg:pt-20">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-hivis-400/40 bg-hivis-500/10 px-3 py-1 text-xs font-semibold uppercase tracking-wider text-hivis-200">
            <ShieldCheckIcon className="h-4 w-4" />
            Nationally recognised · RTO {rtoCode}
          </p>
          <h1 id="hero-title" className="mt-5 text-4xl font-extrabold leading-[1.05] tracking-tight sm:text-5xl lg:text-6xl">
            Master the lift.
            <span className="block text-hivis-400">Get licensed to work at height.</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-steel-200">
            High-risk work licence training in crane operation, dogging and rigging, in a three-tier certification path from your first ticket to tower cranes.
            Every course complies with ASQA, the national vocational training regulator.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/courses" className={buttonClasses("primary", "lg")}>
              View Courses
              <ArrowRightIcon />
            </Link>
            <Link to="/forgot-password" preventScrollReset className={buttonClasses("inverse", "lg")}>
              <KeyIcon />
              Reset Password
            </Link>
          </div>
          <p className="mt-6 text-sm text-steel-300">Small classes · Practical assessment on real cranes · Licence paperwork lodged for you</p>
        </div>
        <TowerCraneArt className="mx-auto hidden w-full max-w-md sm:block" />
      </div>
    </section>
  );
}
