/**
 * npm run admin:create -- --email E --name "N": the first administrator of a real deployment
 * (which never gets the demo accounts). The account is active and approved at once. The
 * password comes from ADMIN_PASSWORD or is asked for without echo; it is never printed or logged.
 */
import readline from "node:readline";
import { parseArgs } from "node:util";
import { z } from "zod";
import { openDatabase } from "../db/connection";
import { DEMO_PASSWORD } from "../app/demo/data";
import { migrateToLatest } from "../db/migrate";
import { parseEnv } from "../app/env.server";
import { registerUser } from "../app/models/user.server";
import { email, password, requiredText } from "../app/schemas/fields";
import { parseWith } from "../app/utils/validation";

const adminSchema = z.object({
  email,
  full_name: requiredText("Name"),
  password: password.refine((p) => p !== DEMO_PASSWORD, "Choose a password other than the demo password"),
});

/** Reads a line from the terminal without echoing it; from a pipe, reads the first line. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    let asked = false;
    output._writeToOutput = (s: string) => {
      if (!asked) process.stdout.write(s);
    };
    rl.question(question, (answer) => {
      rl.close();
      if (process.stdin.isTTY) process.stdout.write("\n");
      resolve(answer);
    });
    asked = true;
  });
}

async function main() {
  const { values } = parseArgs({ options: { email: { type: "string" }, name: { type: "string" } } });
  if (!values.email || !values.name) throw new Error('Usage: npm run admin:create -- --email admin@your-rto.example --name "Full Name"');
  let secret = process.env.ADMIN_PASSWORD;
  if (!secret) {
    secret = await askHidden("Password for the new administrator: ");
    if (process.stdin.isTTY && (await askHidden("Repeat the password: ")) !== secret) throw new Error("The passwords do not match.");
  }
  const parsed = parseWith(adminSchema, { email: values.email, full_name: values.name, password: secret });
  if (!parsed.success) throw new Error(Object.values(parsed.fieldErrors).join("\n"));

  const env = parseEnv();
  // it migrates first, so it connects as the tables' owner where the two roles are split
  const db = openDatabase(env.MIGRATION_DATABASE_URL ?? env.DATABASE_URL);
  try {
    await migrateToLatest(db);
    const { user } = await registerUser(
      db,
      { ...parsed.data, role: "admin", phone: null, address: null, date_of_birth: null, emergency_contact: null },
      { approved: true, breakGlass: true, audit: { action: "admin.created", actor: { id: null }, detail: "npm run admin:create" } },
    );
    console.log(`Administrator ${user.email} created. Sign in at ${env.APP_URL ?? "http://localhost:" + env.PORT}/login.`);
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
