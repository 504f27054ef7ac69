import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { parseEml } from "../support/eml";
import { outboxDir } from "./e2e-db";

/**
 * The path of the link to `route` in the latest mail to `email`, waited for: the e2e server
 * writes its mail to the outbox folder, and a journey follows the link as its reader would.
 */
export async function mailedLink(email: string, route: string): Promise<string> {
  const find = () => {
    const outbox = outboxDir();
    if (!fs.existsSync(outbox)) return null;
    const texts = fs
      .readdirSync(outbox)
      .filter((f) => f.endsWith(".eml"))
      .sort()
      .map((f) => parseEml(fs.readFileSync(path.join(outbox, f), "utf8")))
      .filter((m) => m.headers.to === email)
      .map((m) => m.text ?? "");
    return new RegExp(`https?://\\S+/${route}/[A-Za-z0-9_%-]+`).exec(texts.at(-1) ?? "")?.[0] ?? null;
  };
  await expect.poll(find, { message: `the ${route} mail to ${email}` }).not.toBeNull();
  return new URL(find()!).pathname;
}
