import { sql } from "kysely";
import { MAX_CONCURRENT_HASHES, verifyPassword } from "~/auth/password.server";
import type { DB } from "#db/connection";
import { DEMO_PASSWORD } from "./data";

/**
 * The accounts that still sign in with the demo password. Checking every account would take a
 * strong hash each, so this checks the ones that can carry it: the demo organisation's
 * (example.com is reserved, no real person has it), every trainer and administrator, and any
 * hash that several accounts share (the large demo seed gives everyone one hash).
 */
export async function accountsWithDemoPassword(db: DB): Promise<string[]> {
  const rows = await db
    .selectFrom("users")
    .select(["email", "password_hash"])
    .where((eb) =>
      eb.or([
        eb("email", "like", "%@example.com"),
        eb("role", "in", ["admin", "trainer"]),
        eb("password_hash", "in", sql<string>`(select password_hash from users group by password_hash having count(*) > 1)`),
      ]),
    )
    .orderBy("email")
    .execute();
  const byHash = new Map<string, string[]>();
  for (const row of rows) byHash.set(row.password_hash, [...(byHash.get(row.password_hash) ?? []), row.email]);
  const found: string[] = [];
  const hashes = [...byHash.keys()];
  for (let i = 0; i < hashes.length; i += MAX_CONCURRENT_HASHES) {
    const batch = hashes.slice(i, i + MAX_CONCURRENT_HASHES);
    const matches = await Promise.all(batch.map((hash) => verifyPassword(DEMO_PASSWORD, hash)));
    batch.forEach((hash, j) => matches[j] && found.push(...byHash.get(hash)!));
  }
  return found.sort();
}

/**
 * Who still has the demo password, as a message needs it: how many, and the first 20 emails (a
 * large demo database has tens of thousands, more than an environment variable may carry).
 */
export interface DemoAccounts {
  count: number;
  sample: string[];
}

export const summariseDemoAccounts = (emails: readonly string[]): DemoAccounts => ({ count: emails.length, sample: emails.slice(0, 20) });

/** The accounts a refusal to start names: the first 20, and how many more. */
export function namedAccounts(accounts: DemoAccounts): string[] {
  const more = accounts.count - accounts.sample.length;
  return [...accounts.sample.map((email) => `  ${email}`), ...(more > 0 ? [`  … and ${more} more`] : [])];
}

/**
 * Why a server holding demo accounts will not listen on `host`, or null when it may: the demo
 * password is printed in the README, so those accounts are anyone's, and a portal that has them
 * answers this machine only.
 */
export function demoListenRefusal(accounts: DemoAccounts, host: string | undefined, loopback: (host: string) => boolean): string | null {
  if (!accounts.count || !host || loopback(host.replace(/^\[(.*)\]$/, "$1"))) return null;
  return [
    `Refusing to listen on ${host}: ${accounts.count} account(s) still have the demo password, so this portal answers this machine only:`,
    ...namedAccounts(accounts),
    "Unset HOST (or set it to 127.0.0.1) to run the demo, or change these passwords first (a real deployment starts from an empty database: npm run admin:create).",
  ].join("\n");
}
