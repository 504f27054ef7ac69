import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import type { DeliveryLocationRow } from "#db/schema";
import type { LocationInput } from "~/schemas/location";
import { conflict, notFound } from "~/utils/errors";
import { recordEvent } from "./event.server";

/** Delivery locations (where training happens); each enrolment names one, the first by default. */

export type DeliveryLocation = Omit<DeliveryLocationRow, "created_at" | "updated_at">;

const columns = ["id", "identifier", "name", "suburb", "postcode", "state", "country"] as const;

/** Every location, the default (the first added) first. */
export function listLocations(db: DB): Promise<DeliveryLocation[]> {
  return db.selectFrom("delivery_locations").select(columns).orderBy("created_at").orderBy("id").execute();
}

export async function getLocation(db: DB, id: string): Promise<DeliveryLocation | null> {
  return (await db.selectFrom("delivery_locations").select(columns).where("id", "=", id).executeTakeFirst()) ?? null;
}

/** The location an enrolment gets when none is chosen: the first added; null while there is none. */
export async function defaultLocationId(db: DB): Promise<string | null> {
  const row = await db.selectFrom("delivery_locations").select("id").orderBy("created_at").orderBy("id").limit(1).executeTakeFirst();
  return row?.id ?? null;
}

export const LOCATION_IDENTIFIER_TAKEN = "Another location already uses this identifier";

async function assertIdentifierFree(db: DB, identifier: string, exceptId: string | null): Promise<void> {
  let query = db.selectFrom("delivery_locations").select("id").where("identifier", "=", identifier);
  if (exceptId) query = query.where("id", "!=", exceptId);
  if (await query.executeTakeFirst()) throw conflict(LOCATION_IDENTIFIER_TAKEN, "identifier");
}

export async function createLocation(db: DB, input: LocationInput, actorId: string | null, now = new Date()): Promise<DeliveryLocation> {
  const at = now.toISOString();
  const id = crypto.randomUUID();
  return writeTransaction(db, async (trx) => {
    await assertIdentifierFree(trx, input.identifier, null);
    await trx
      .insertInto("delivery_locations")
      .values({ id, ...input, created_at: at, updated_at: at })
      .execute();
    await recordEvent(trx, {
      actorId,
      subjectUserId: null,
      type: "location.created",
      entityType: "delivery_location",
      entityId: id,
      message: `Delivery location ${input.identifier} (${input.name}) was added`,
      now: at,
    });
    return (await getLocation(trx, id))!;
  });
}

export async function updateLocation(db: DB, id: string, input: LocationInput, actorId: string | null, now = new Date()): Promise<DeliveryLocation> {
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    if (!(await getLocation(trx, id))) throw notFound("Location");
    await assertIdentifierFree(trx, input.identifier, id);
    await trx
      .updateTable("delivery_locations")
      .set({ ...input, updated_at: at })
      .where("id", "=", id)
      .execute();
    await recordEvent(trx, {
      actorId,
      subjectUserId: null,
      type: "location.updated",
      entityType: "delivery_location",
      entityId: id,
      message: `Delivery location ${input.identifier} (${input.name}) was updated`,
      now: at,
    });
    return (await getLocation(trx, id))!;
  });
}
