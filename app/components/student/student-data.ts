import type { SerializeFrom } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import type { loader } from "~/routes/student+/_layout";

export type StudentData = SerializeFrom<typeof loader>;
export type StudentEnrollmentData = StudentData["enrollments"][number];
export type StudentCertificateData = StudentData["certificates"][number];

/**
 * The student's enrollments and certificates, loaded once by the /student layout (in
 * parallel) and shared by its pages.
 */
export function useStudentData(): StudentData {
  const data = useRouteLoaderData<typeof loader>("routes/student+/_layout");
  if (!data) throw new Error("useStudentData is for routes under /student");
  return data;
}
