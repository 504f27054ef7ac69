/** Wording of two-step sign-in that pages show, zod-free and server-free (app/auth/two-step.server.ts enforces it). */

export const SET_UP_REQUIRED = "Administrators must set up two-step sign-in before doing anything else";
export const REQUIRED_FOR_ADMINS = "Administrators cannot turn two-step sign-in off";
