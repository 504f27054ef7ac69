/**
 * npm run bench:audit -- --entries 1000000: the audit trail at size on PostgreSQL
 * (TEST_DATABASE_URL names the server; docs/decisions/017-audit-integrity.md has the figures).
 *
 * Makes a database of its own (the test helpers' naming, dropped at the end), fills audit_log
 * with `--entries` chained entries of a realistic size and a signed checkpoint every
 * `--checkpoint-every` entries up to 5,000 entries before the end (the most the page walks),
 * then times:
 *   - npm run audit:verify as a process (wall time and peak RSS), extrapolated to 5,000,000;
 *   - the audit page's check (the newest checkpoint and the 5,000 entries after it), warm;
 *   - one run of the checkpoint job over those 5,000 entries.
 * Exits 1 when audit:verify does not report the trail intact, or its extrapolation misses
 * 3 minutes for 5,000,000 entries, or the page's check takes more than 250 ms.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { auditKeyId, chainHash, checkpointSignature, GENESIS_HASH, GENESIS_SIGNATURE, type ChainedAuditRow } from "../db/audit-chain";
import { openDatabase } from "../db/connection";
import { migrateToLatest } from "../db/migrate";
import { auditChainSummary, checkpointAuditTrail, PAGE_VERIFY_LIMIT } from "../app/models/audit-chain.server";
import { listAudit } from "../app/models/audit.server";
import { createDatabase, databaseUrl, dropDatabase, uniqueDatabaseName } from "../tests/support/postgres-test-server";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const ENTRIES = arg("entries", 1_000_000);
const CHECKPOINT_EVERY = arg("checkpoint-every", 500);
const TARGET_ENTRIES = 5_000_000;
// the page's check reads the key from the environment, as a server does
process.env.AUDIT_KEY ||= crypto.randomBytes(32).toString("hex");
const KEY = process.env.AUDIT_KEY;
const BATCH = 10_000;

const ACTIONS = [
  "sign_in.succeeded",
  "sign_out",
  "student.edited",
  "attendance.marked",
  "result.recorded",
  "usi.viewed",
  "certificate.issued",
  "students.exported",
];

/** Entry `id` of a generated trail: sizes as the portal writes them (uuids, an email, an address, a short note). */
function entry(id: number, prev: string, rand: () => number): ChainedAuditRow {
  const uuid = () => crypto.randomUUID();
  const at = new Date(Date.UTC(2023, 0, 1) + id * 17_000).toISOString();
  const action = ACTIONS[Math.floor(rand() * ACTIONS.length)]!;
  return {
    id,
    at,
    action,
    actor_id: uuid(),
    actor_email: `staff${id % 400}@summit-training.example`,
    subject_type: "user",
    subject_id: uuid(),
    subject_user_id: uuid(),
    client: `10.${id % 256}.${(id >> 8) % 256}.${(id >> 16) % 256}`,
    fields: action === "student.edited" ? "address_line_1,phone,postcode" : null,
    detail: action === "certificate.issued" ? `SOA-2026-${String(id).padStart(7, "0")}` : null,
    prev_hash: prev,
  };
}

async function main() {
  if (!process.env.TEST_DATABASE_URL) throw new Error("Set TEST_DATABASE_URL to a PostgreSQL server (postgres://postgres@127.0.0.1:5432/postgres).");
  const name = uniqueDatabaseName("portal_bench_audit");
  await createDatabase(name);
  const url = databaseUrl(name);
  const db = openDatabase(url);
  try {
    await migrateToLatest(db);
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const started = performance.now();
    await sql`alter table audit_log disable trigger user`.execute(db);
    await sql`alter table audit_head disable trigger user`.execute(db);
    await sql`alter table audit_checkpoints disable trigger user`.execute(db);
    let prev = GENESIS_HASH;
    let prevSignature = GENESIS_SIGNATURE;
    let checkpointId = 0;
    const lastCheckpointAt = ENTRIES - PAGE_VERIFY_LIMIT;
    for (let from = 1; from <= ENTRIES; from += BATCH) {
      const rows: (ChainedAuditRow & { hash: string })[] = [];
      const checkpoints: Record<string, unknown>[] = [];
      for (let id = from; id < from + BATCH && id <= ENTRIES; id++) {
        const row = entry(id, prev, rand);
        prev = chainHash(row);
        rows.push({ ...row, hash: prev });
        if (id % CHECKPOINT_EVERY === 0 && id <= lastCheckpointAt) {
          const cp = { id: ++checkpointId, through_id: id, through_hash: prev, made_at: row.at, key_id: auditKeyId(KEY), prev_signature: prevSignature };
          prevSignature = checkpointSignature(KEY, cp);
          checkpoints.push({ ...cp, signature: prevSignature });
        }
      }
      const column = (c: keyof (typeof rows)[0]) => rows.map((r) => r[c]);
      await sql`insert into audit_log (id, at, action, actor_id, actor_email, subject_type, subject_id, subject_user_id, client, fields, detail, prev_hash, hash)
        select * from unnest(${column("id")}::int[], ${column("at")}::text[], ${column("action")}::text[], ${column("actor_id")}::text[], ${column("actor_email")}::text[],
          ${column("subject_type")}::text[], ${column("subject_id")}::text[], ${column("subject_user_id")}::text[], ${column("client")}::text[], ${column("fields")}::text[],
          ${column("detail")}::text[], ${column("prev_hash")}::text[], ${column("hash")}::text[])`.execute(db);
      if (checkpoints.length > 0)
        await db
          .insertInto("audit_checkpoints")
          .values(checkpoints as never)
          .execute();
    }
    await db.updateTable("audit_head").set({ last_id: ENTRIES, last_hash: prev }).execute();
    await sql`alter table audit_log enable trigger user`.execute(db);
    await sql`alter table audit_head enable trigger user`.execute(db);
    await sql`alter table audit_checkpoints enable trigger user`.execute(db);
    await sql`vacuum analyze audit_log`.execute(db);
    await sql`vacuum analyze audit_checkpoints`.execute(db);
    const size = (await sql<{ size: string }>`select pg_size_pretty(pg_total_relation_size('audit_log')) as size`.execute(db)).rows[0]!.size;
    console.log(
      `Generated ${ENTRIES.toLocaleString("en-AU")} entries and ${checkpointId.toLocaleString("en-AU")} checkpoints in ${((performance.now() - started) / 1000).toFixed(1)} s (audit_log: ${size})`,
    );

    // npm run audit:verify, as an operator runs it
    const t0 = performance.now();
    const verify = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, "scripts/run-built.mjs", "audit-verify"], {
      env: { ...process.env, DATABASE_URL: url, AUDIT_KEY: KEY },
      encoding: "utf8",
    });
    const seconds = (performance.now() - t0) / 1000;
    const rssMb = Number(verify.stderr.trim().split("\n").pop()) / 1024;
    const perMillion = seconds / (ENTRIES / 1_000_000);
    const extrapolated = perMillion * (TARGET_ENTRIES / 1_000_000);
    console.log(
      `audit:verify: exit ${verify.status}, ${seconds.toFixed(1)} s for ${ENTRIES.toLocaleString("en-AU")} entries (${perMillion.toFixed(1)} s a million), peak RSS ${rssMb.toFixed(0)} MB`,
    );
    console.log(`  ${verify.stdout.trim()}`);
    console.log(`  5,000,000 entries at that rate: ${extrapolated.toFixed(0)} s (target 180 s)`);

    // the page's check: the newest checkpoint and the entries after it
    const times: number[] = [];
    let summary = await auditChainSummary(db);
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      summary = await auditChainSummary(db);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const pageMs = times[Math.floor(times.length / 2)]!;
    console.log(
      `The page's check: ${pageMs.toFixed(0)} ms warm (median of 7; ${PAGE_VERIFY_LIMIT.toLocaleString("en-AU")} entries after checkpoint ${summary.checkpoint?.number}): ${summary.message}`,
    );

    // the rest of the page: its first page of entries and their count, unfiltered and by action
    for (const filters of [{}, { action: "certificate.issued" as const }]) {
      await listAudit(db, filters);
      const t = performance.now();
      const page = await listAudit(db, filters);
      console.log(`The page's list ${JSON.stringify(filters)}: ${(performance.now() - t).toFixed(0)} ms warm (${page.total.toLocaleString("en-AU")} entries)`);
    }

    if (process.argv.includes("--explain")) {
      for (const statement of [
        "select count(*) from audit_log left join users as subject_user on subject_user.id = audit_log.subject_user_id",
        "select count(*) from audit_log left join users as subject_user on subject_user.id = audit_log.subject_user_id where audit_log.action = 'certificate.issued'",
      ]) {
        const plan = await sql.raw<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${statement}`).execute(db);
        console.log(plan.rows.map((r) => r["QUERY PLAN"]).join("\n"));
      }
    }

    const t1 = performance.now();
    const run = await checkpointAuditTrail(db, { key: KEY });
    console.log(
      `The checkpoint job: ${(performance.now() - t1).toFixed(0)} ms, verified entries ${run.from} to ${run.through}, signed checkpoint ${run.checkpoint}`,
    );
    const ok = verify.status === 0 && extrapolated <= 180 && pageMs <= 250;
    if (!ok) console.log("MISS: a target above was not met");
    return ok ? 0 : 1;
  } finally {
    await db.destroy();
    await dropDatabase(name);
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error);
    process.exit(2);
  });
