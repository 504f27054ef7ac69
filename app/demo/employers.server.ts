import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import { hashPassword } from "~/security/password.server";
import { createEmployer, inviteEmployerUser } from "~/models/employers/employer.server";
import { acceptWorkerInvitation, bookableClasses, createBooking } from "~/models/employers/group-booking.server";
import { employerSchema } from "~/schemas/employer";
import { DEMO_PASSWORD } from "./data";

export const DEMO_EMPLOYER_EMAIL = "employer@example.com";

/**
 * The demo employer, through the model functions: Harbour Civil Pty Ltd, its user (the demo
 * login employer@example.com, whose invitation is spent as if they had chosen the demo password),
 * and a booking of 3 seats in the second basic rigging class with 3 workers: one shares their
 * results, one does not, one has not answered the invitation yet.
 */
export async function seedDemoEmployer(db: DB, input: { now: Date; adminId: string }): Promise<void> {
  const { now, adminId } = input;
  const actor = { id: adminId, client: null };
  const employer = await createEmployer(
    db,
    employerSchema.parse({
      name: "Harbour Civil Pty Ltd",
      abn: "53 004 085 616",
      contact_name: "Morgan Hale",
      contact_email: "accounts@harbourcivil.example",
      contact_phone: "02 4900 1200",
      address: "1 Wharf Rd\nNewcastle NSW 2300",
    }),
    actor,
    now,
  );
  const invited = await inviteEmployerUser(db, { employerId: employer.id, full_name: "Morgan Hale", email: DEMO_EMPLOYER_EMAIL, actor, link: () => null, now });
  const hash = await hashPassword(DEMO_PASSWORD);
  await writeTransaction(db, async (trx) => {
    await trx.updateTable("users").set({ password_hash: hash }).where("id", "=", invited.userId).execute();
    await trx.updateTable("invitations").set({ used_at: now.toISOString() }).where("user_id", "=", invited.userId).execute();
  });

  const rigging = (await bookableClasses(db, now)).filter((c) => c.course.toLowerCase().includes("rigging") && c.seats_left >= 3);
  const cls = rigging[1] ?? rigging[0];
  if (!cls) return;
  const tokens: string[] = [];
  const workers = [
    { full_name: "Tane Walker", email: "tane.walker@harbourcivil.example" },
    { full_name: "Grace Nguyen", email: "grace.nguyen@harbourcivil.example" },
    { full_name: "Ollie Brennan", email: "ollie.brennan@harbourcivil.example" },
  ];
  await createBooking(db, {
    class_id: cls.id,
    seats: 3,
    workers,
    user: { id: invited.userId, role: "employer" },
    link: (token) => {
      tokens.push(token);
      return null;
    },
    now,
  });
  // two workers accept (each chooses a password of their own, which no demo login uses)
  for (const [i, consent] of (["yes", "no"] as const).entries()) {
    await acceptWorkerInvitation(db, {
      token: tokens[i]!,
      signedInUserId: null,
      consent,
      usi: null,
      phone: null,
      date_of_birth: null,
      full_name: workers[i]!.full_name,
      password: crypto.randomBytes(18).toString("base64url"),
      now,
    });
  }
}
