/**
 * npm run audit:verify: walks the audit trail's hash chain from its first entry and prints
 * "Audit trail: chain intact through entry N" (exit 0), or names the first entry that does not
 * match (exit 1). Reads only; safe while the server runs.
 */
import { openDatabase } from "../db/connection";
import { parseEnv } from "../app/env.server";
import { auditChainLine, verifyAuditChain } from "../app/models/audit.server";

async function main() {
  const db = openDatabase(parseEnv().DATABASE_URL);
  try {
    const check = await verifyAuditChain(db);
    console.log(auditChainLine(check));
    return check.intact ? 0 : 1;
  } finally {
    await db.destroy();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  });
