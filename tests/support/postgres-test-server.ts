import crypto from "node:crypto";
import pg from "pg";
import { openDatabase } from "../../db/connection";
import { migrateToLatest } from "../../db/migrate";
import { seedDemoData } from "../../app/demo/seed.server";

/**
 * Test databases on the PostgreSQL server TEST_DATABASE_URL names. A run migrates (and seeds)
 * two template databases once; each test file then gets its own database copied from one,
 * which takes a fraction of a second, and drops it when done.
 */

export function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is not set");
  return url;
}

/** The URL of database `name` on the same server. */
export function databaseUrl(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function createDatabase(name: string, template?: string): Promise<void> {
  await withAdmin((c) => c.query(`create database ${quote(name)}${template ? ` template ${quote(template)}` : ""}`));
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((c) => c.query(`drop database if exists ${quote(name)} with (force)`));
}

export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

export interface Templates {
  migrated: string;
  seeded: string;
}

/** Builds the run's two templates: the latest schema, and the schema with the demo data. */
export async function createTemplates(run: string): Promise<Templates> {
  const templates = { migrated: `portal_tpl_${run}_migrated`, seeded: `portal_tpl_${run}_seeded` };
  for (const [kind, name] of Object.entries(templates)) {
    await dropDatabase(name);
    await createDatabase(name);
    const db = openDatabase(databaseUrl(name));
    try {
      await migrateToLatest(db);
      if (kind === "seeded") await seedDemoData(db);
    } finally {
      await db.destroy();
    }
  }
  return templates;
}

/** Drops every database a run made (templates and test files' copies left by a crash). */
export async function dropRunDatabases(run: string): Promise<void> {
  const names = await withAdmin(
    async (c) => (await c.query<{ datname: string }>("select datname from pg_database where datname like $1", [`portal_%${run}%`])).rows,
  );
  for (const { datname } of names) await dropDatabase(datname);
}
