import type { ReactNode } from "react";

/** A titled block inside an admin detail modal (Student Profile, Course Details). */
export function ModalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-t border-steel-100 pt-4">
      <h3 className="mb-2 text-sm font-bold uppercase tracking-wide text-steel-700">{title}</h3>
      {children}
    </section>
  );
}
