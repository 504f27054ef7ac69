import crypto from "node:crypto";
import type { Selectable } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import type { EmployersTable } from "#db/schema-employers";
import { isUniqueViolation } from "#db/dialect";
import type { EmployerInput, EmployerUserInviteInput } from "~/schemas/employer";
import { ABN_TAKEN, INVITATION_OTHER_ACCOUNT } from "~/schemas/employer-text";
import { conflict, notFound } from "~/utils/errors";
import { recordAudit, type AuditActor } from "../audit.server";
import { createInvitation, NO_PASSWORD_YET, openInvitation, spendInvitation, type MakeLink } from "../invitation.server";
import { queueMail } from "../outbox.server";
import { employerOf } from "./employer-scope.server";
import { assertEmailFree, insertUser } from "../user.server";
import { assertAcceptablePassword } from "~/security/password-policy.server";
import { hashPassword } from "~/security/password.server";

/**
 * Employers: the client organisations that book seats for their workers, and their users (role
 * employer, each linked to one organisation, invited by an administrator).
 */

export type Employer = Pick<Selectable<EmployersTable>, (typeof COLUMNS)[number]>;

const COLUMNS = ["id", "name", "abn", "contact_name", "contact_email", "contact_phone", "address", "created_at", "updated_at"] as const;

export async function listEmployers(db: DB): Promise<(Employer & { users: number; bookings: number })[]> {
  const rows = await db
    .selectFrom("employers as e")
    .select(COLUMNS.map((c) => `e.${c}` as const))
    .select((eb) => [
      eb.selectFrom("users as u").select(eb.fn.countAll<number>().as("n")).whereRef("u.employer_id", "=", "e.id").as("users"),
      eb.selectFrom("group_bookings as b").select(eb.fn.countAll<number>().as("n")).whereRef("b.employer_id", "=", "e.id").as("bookings"),
    ])
    .orderBy("e.name")
    .execute();
  return rows.map((r) => ({ ...r, users: Number(r.users), bookings: Number(r.bookings) }));
}

export async function getEmployer(db: DB, id: string): Promise<Employer> {
  const row = await db.selectFrom("employers").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Employer");
  return row;
}

/** An ABN held by another employer is a 409 beside the ABN field. */
async function withAbnClash<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(ABN_TAKEN, "abn");
    throw error;
  }
}

export async function createEmployer(db: DB, input: EmployerInput, actor: AuditActor, now = new Date()): Promise<Employer> {
  const at = now.toISOString();
  const id = crypto.randomUUID();
  return withAbnClash(() =>
    writeTransaction(db, async (trx) => {
      if (await trx.selectFrom("employers").select("id").where("abn", "=", input.abn).executeTakeFirst()) throw conflict(ABN_TAKEN, "abn");
      await trx
        .insertInto("employers")
        .values({ id, ...input, created_at: at, updated_at: at })
        .execute();
      await recordAudit(trx, { action: "employer.created", actor, subject: { type: "employer", id }, now: at });
      return getEmployer(trx, id);
    }),
  );
}

export async function updateEmployer(db: DB, id: string, input: EmployerInput, actor: AuditActor, now = new Date()): Promise<Employer> {
  const at = now.toISOString();
  return withAbnClash(() =>
    writeTransaction(db, async (trx) => {
      const before = await getEmployer(trx, id);
      if (await trx.selectFrom("employers").select("id").where("abn", "=", input.abn).where("id", "<>", id).executeTakeFirst())
        throw conflict(ABN_TAKEN, "abn");
      const fields = (Object.keys(input) as (keyof EmployerInput)[]).filter((k) => before[k] !== input[k]);
      await trx
        .updateTable("employers")
        .set({ ...input, updated_at: at })
        .where("id", "=", id)
        .execute();
      if (fields.length) await recordAudit(trx, { action: "employer.edited", actor, subject: { type: "employer", id }, fields, now: at });
      return getEmployer(trx, id);
    }),
  );
}

export interface EmployerUser {
  id: string;
  full_name: string;
  email: string;
  /** false while the invitation is still to be accepted */
  active: boolean;
  last_login: string | null;
}

export async function listEmployerUsers(db: DB, employerId: string): Promise<EmployerUser[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "full_name", "email", "password_hash", "last_login"])
    .where("employer_id", "=", employerId)
    .where("role", "=", "employer")
    .orderBy("full_name")
    .execute();
  return rows.map((r) => ({ id: r.id, full_name: r.full_name, email: r.email, active: r.password_hash !== NO_PASSWORD_YET, last_login: r.last_login }));
}

/**
 * An administrator invites a person to act for an employer: their account is made (role
 * employer, no usable password yet) and the invitation mailed, in one transaction. A taken
 * email is a 409 beside the email field.
 */
export async function inviteEmployerUser(
  db: DB,
  input: EmployerUserInviteInput & { employerId: string; actor: AuditActor; link: MakeLink; now?: Date },
): Promise<{ userId: string; token: string }> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    const employer = await getEmployer(trx, input.employerId);
    await assertEmailFree(trx, input.email);
    const userId = await insertUser(
      trx,
      {
        email: input.email,
        full_name: input.full_name,
        password_hash: NO_PASSWORD_YET,
        role: "employer",
        employer_id: employer.id,
        phone: null,
        address: null,
        date_of_birth: null,
        emergency_contact: null,
        license_number: null,
        usi: null,
        is_active: 1,
        approval_status: "approved",
      },
      at,
    );
    const invitation = await createInvitation(trx, { kind: "employer_user", userId, now });
    const link = input.link(invitation.token);
    if (link) {
      await queueMail(trx, {
        key: `employer-invitation:${invitation.id}`,
        template: "employer-invitation",
        recipientId: userId,
        data: { link, employer: employer.name, expiresAt: invitation.expiresAt },
        now,
      });
    }
    await recordAudit(trx, { action: "employer_user.invited", actor: input.actor, subject: { type: "employer", id: employer.id, userId }, now: at });
    return { userId, token: invitation.token };
  });
}

/** What the invitation page shows before the password is chosen. */
export async function employerInvitationFor(db: DB, token: string, now = new Date()) {
  const invitation = await openInvitation(db, token, "employer_user", now);
  const user = await db
    .selectFrom("users as u")
    .innerJoin("employers as e", "e.id", "u.employer_id")
    .select(["u.full_name", "u.email", "e.name as employer"])
    .where("u.id", "=", invitation.userId)
    .executeTakeFirstOrThrow();
  return { ...user, expiresAt: invitation.expiresAt };
}

/** The invited employer's user chooses a password; the link is spent. */
export async function acceptEmployerInvitation(db: DB, input: { token: string; password: string; now?: Date }): Promise<{ userId: string }> {
  const now = input.now ?? new Date();
  const invitation = await openInvitation(db, input.token, "employer_user", now);
  if (invitation.hasPassword) throw conflict(INVITATION_OTHER_ACCOUNT);
  await assertAcceptablePassword(input.password, "employer");
  const hash = await hashPassword(input.password);
  return writeTransaction(db, async (trx) => {
    if (!(await spendInvitation(trx, invitation.id, now))) await openInvitation(trx, input.token, "employer_user", now);
    await trx.updateTable("users").set({ password_hash: hash, updated_at: now.toISOString() }).where("id", "=", invitation.userId).execute();
    await recordAudit(trx, {
      action: "employer_user.activated",
      actor: { id: invitation.userId },
      subject: { type: "user", id: invitation.userId, userId: invitation.userId },
      now,
    });
    return { userId: invitation.userId };
  });
}

/**
 * The organisation of a signed-in employer's user, read through the same rule every employer
 * query is scoped by (employerOf): anyone else's user answers "not found".
 */
export async function employerOfUser(db: DB, user: { id: string }): Promise<Employer> {
  const row = await employerOf(db, user.id).executeTakeFirst();
  if (!row?.employer_id) throw notFound("Employer");
  return getEmployer(db, row.employer_id);
}
