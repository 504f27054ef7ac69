import type { Migration } from "kysely";
import * as initial from "./2026-11-22T0900_initial";

/**
 * Explicit map so the bundler keeps every migration. Keys sort in the order they run.
 */
export const migrations: Record<string, Migration> = {
  "2026-11-22T0900_initial": initial,
};
