/**
 * npm run audit:verify: walks the whole audit trail from its first entry, and every checkpoint
 * the background job signed with AUDIT_KEY, and prints what it found: "Audit trail: chain
 * intact through entry N; …" (exit 0), the first entry or checkpoint that does not match
 * (exit 1), or that the checkpoints cannot be checked for want of the right AUDIT_KEY (exit 2).
 * Reads only, a batch at a time (memory stays flat at any size); safe while the server runs.
 * The key is AUDIT_KEY, else data/audit-key; none is ever made up here.
 */
import { openDatabase } from "../db/connection";
import { existingAuditKey, parseSettings } from "../app/env.server";
import { auditChainLine, isKeyProblem, verifyAuditChain } from "../app/models/audit-chain.server";

async function main() {
  const settings = parseSettings();
  const db = openDatabase(settings.DATABASE_URL);
  try {
    const check = await verifyAuditChain(db, { key: existingAuditKey(settings) });
    console.log(auditChainLine(check));
    return check.intact ? 0 : isKeyProblem(check) ? 2 : 1;
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
