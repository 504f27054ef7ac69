/** Where a course's links lead, in one place: its public page and its enrolment page. */
export const coursePagePath = (courseId: string) => `/courses/${encodeURIComponent(courseId)}`;
export const enrolPath = (courseId: string) => `/enroll/${encodeURIComponent(courseId)}`;
export const reviewPath = (courseId: string) => `/courses/${encodeURIComponent(courseId)}/review`;
