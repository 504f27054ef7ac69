/** What a detail the learner did not give reads as. A module of its own: a page that only shows details needs no code lists. */
export const NOT_STATED = "Not stated";
