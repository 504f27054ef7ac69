import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * How many requests of one kind (scope) a client made in the current fixed window, for rate
 * limits that hold across every worker and server sharing the database (the public
 * certificate verification pages first). A client keeps one row per scope: the window's start
 * and its count.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table request_counts (
      scope text not null,
      client text not null,
      window_start text not null,
      n integer not null check (n >= 0),
      primary key (scope, client)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists request_counts`.execute(db);
}
