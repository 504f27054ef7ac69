import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { parseEml, type ParsedEml } from "../support/eml";
import { outboxDir } from "./e2e-db";

/**
 * The mail the running project's e2e server wrote to its outbox (OUTBOX_DIR in server.mjs) to
 * `email`, oldest first: whole messages only (the server writes each under `.partial` and
 * renames it when it is complete).
 */
export function mailsTo(email: string): ParsedEml[] {
  const outbox = outboxDir();
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .filter((f) => f.endsWith(".eml"))
    .sort()
    .map((f) => parseEml(fs.readFileSync(path.join(outbox, f), "utf8")))
    .filter((m) => m.headers.to === email);
}

/**
 * The path of the link to `route` in the latest mail to `email`, waited for: the e2e server
 * writes its mail to the outbox folder, and a journey follows the link as its reader would.
 */
export async function mailedLink(email: string, route: string): Promise<string> {
  const find = () => {
    const texts = mailsTo(email).map((m) => m.text ?? "");
    return new RegExp(`https?://\\S+/${route}/[A-Za-z0-9_%-]+`).exec(texts.at(-1) ?? "")?.[0] ?? null;
  };
  await expect.poll(find, { message: `the ${route} mail to ${email}` }).not.toBeNull();
  return new URL(find()!).pathname;
}
