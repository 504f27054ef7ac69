import type { ColumnType } from "kysely";

/**
 * The tables of employers, their group bookings and the invitations mailed to their users and
 * workers (migration 2026-11-29T0700). Instants are ISO 8601 text, days YYYY-MM-DD.
 */

type Optional = ColumnType<string | null, string | null | undefined, string | null>;
type OptionalNumber = ColumnType<number | null, number | null | undefined, number | null>;

export const INVITATION_KINDS = ["employer_user", "worker"] as const;
export type InvitationKind = (typeof INVITATION_KINDS)[number];

export interface EmployersTable {
  id: string;
  name: string;
  /** 11 digits, no spaces; its check digits were verified when it was saved */
  abn: string;
  contact_name: string;
  contact_email: string;
  contact_phone: string;
  address: string;
  created_at: string;
  updated_at: string;
}

export interface GroupBookingsTable {
  id: string;
  employer_id: string;
  class_id: string;
  /** the seats the booking holds now (the seat rule counts them whole) */
  seats: number;
  /** the seats booked at first */
  seats_booked: number;
  /** the day (Sydney) the seats no worker has taken are given back */
  release_on: string;
  released_at: Optional;
  booked_by: string;
  created_at: string;
  /** the refund policy version in force when it was booked (refund_policies.version); null: booked before it was kept */
  refund_policy_version: Optional;
}

export interface BookingWorkersTable {
  id: string;
  booking_id: string;
  full_name: string;
  email: string;
  user_id: string;
  enrollment_id: Optional;
  /** 1 shares results with the employer, 0 does not, null: not answered yet */
  consent: OptionalNumber;
  consent_at: Optional;
  invited_at: string;
  accepted_at: Optional;
  /** the worker declined the seat from their invitation: the seat is the booking's to name again */
  declined_at: Optional;
}

export interface InvitationsTable {
  id: string;
  token_hash: string;
  kind: InvitationKind;
  user_id: string;
  worker_id: Optional;
  expires_at: string;
  used_at: Optional;
  created_at: string;
}

export interface EmployerTables {
  employers: EmployersTable;
  group_bookings: GroupBookingsTable;
  booking_workers: BookingWorkersTable;
  invitations: InvitationsTable;
}
