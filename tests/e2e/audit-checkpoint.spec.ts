import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { chainHash, type ChainedAuditRow } from "../../db/audit-chain";
import { e2eDbOf, e2eServer, type E2EServer } from "./e2e-db";
import { DEMO, expect, test, NO_FORM } from "./fixtures";

/**
 * The audit page and GET /api/admin/audit against a real server whose background runner signs
 * the audit trail's checkpoints: they show the last verified checkpoint, and after someone with
 * the database rewrites the trail and hashes every entry again (which the chain alone cannot
 * show), they name the checkpoint that no longer matches.
 *
 * The rewrite cannot be undone, so this spec starts a server of its own (tests/e2e/server.mjs on
 * a port beside the project's, on a fresh database of the project's dialect) instead of the
 * server every other spec shares.
 */
const AUDIT_KEY = crypto.randomBytes(32).toString("hex");
let server: ChildProcess | undefined;
let own: E2EServer;
let base: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const shared = e2eServer();
  const port = shared.port + (test.info().project.name === "no-js" ? 58 : 57);
  let databaseUrl: string | undefined;
  if (shared.databaseUrl) {
    const url = new URL(shared.databaseUrl);
    url.pathname = `/e2e_${port}`;
    databaseUrl = url.toString();
  }
  own = { port, databaseUrl };
  base = `http://localhost:${port}`;
  server = spawn(process.execPath, ["tests/e2e/server.mjs"], {
    // the runner wakes every second, so the first checkpoint is signed a second after start
    env: {
      ...process.env,
      E2E_PORT: String(port),
      E2E_SKIP_BUILD: "1",
      ...(databaseUrl ? { E2E_DATABASE_URL: databaseUrl } : {}),
      AUDIT_KEY,
      JOBS_INTERVAL_SECONDS: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let waited = 0; ; waited += 500) {
    const up = await fetch(`${base}/login`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (waited > 200_000 || server.exitCode !== null) throw new Error(`the audit spec's server on port ${port} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server!.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
});

/** The newest signed checkpoint, once the server's runner has made one. */
async function newestCheckpoint(): Promise<{ id: number; through_id: number }> {
  for (let tries = 0; ; tries++) {
    const row = await e2eDbOf(own).get<{ id: number; through_id: number }>("select id, through_id from audit_checkpoints order by id desc limit 1");
    if (row) return { id: Number(row.id), through_id: Number(row.through_id) };
    if (tries > 60) throw new Error("no checkpoint was signed");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * What the owner of the database (the SQLite file, or PostgreSQL's table owner) can do: every
 * guard off, entry 1 changed, every entry hashed again and linked anew, the head moved to match.
 */
async function rewriteEveryHash(): Promise<void> {
  const db = e2eDbOf(own);
  const unguard = own.databaseUrl
    ? ["alter table audit_log disable trigger user", "alter table audit_head disable trigger user"]
    : ["drop trigger audit_log_no_update", "drop trigger audit_head_forward_only"];
  for (const statement of unguard) await db.run(statement);
  const rows = await db.all<ChainedAuditRow & { hash: string }>(
    "select id, at, action, actor_id, actor_email, subject_type, subject_id, subject_user_id, client, fields, detail, prev_hash, hash from audit_log order by id",
  );
  let prev = rows[0]!.prev_hash;
  for (const row of rows) {
    const changed = { ...row, id: Number(row.id), detail: row.id === rows[0]!.id ? "nothing happened here" : row.detail, prev_hash: prev };
    prev = chainHash(changed);
    await db.run("update audit_log set detail = ?, prev_hash = ?, hash = ? where id = ?", changed.detail, changed.prev_hash, prev, changed.id);
  }
  await db.run("update audit_head set last_hash = ?", prev);
}

test(
  "the audit page and the /api show the last verified checkpoint, and name it once the trail is rewritten with every hash",
  NO_FORM,
  async ({ page, request }) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    const checkpoint = await newestCheckpoint();
    const signedIn = await page.request.post(`${base}/login`, { form: { email: DEMO.admin.email, password: DEMO.admin.password }, maxRedirects: 0 });
    expect(signedIn.status()).toBe(302);
    await page.goto(`${base}/admin/audit`);
    await expect(page.getByRole("status").filter({ hasText: /^Audit trail: chain intact through entry \d+; signed checkpoint/ })).toHaveText(
      new RegExp(`^Audit trail: chain intact through entry \\d+; signed checkpoint ${checkpoint.id} covers entries 1 to ${checkpoint.through_id}$`),
    );
    await expect(
      page.getByText(new RegExp(`^Last verified checkpoint: entry ${checkpoint.through_id}, signed \\d{1,2} \\w{3} \\d{4}, \\d{1,2}:\\d{2} [ap]m\\.`)),
    ).toBeVisible();

    const login = await request.post(`${base}/api/auth/login`, { data: { email: DEMO.admin.email, password: DEMO.admin.password } });
    expect(login.status()).toBe(200);
    const token = ((await login.json()) as { access_token: string }).access_token;
    const chainOf = async () => {
      const answer = await request.get(`${base}/api/admin/audit`, { headers: { Authorization: `Bearer ${token}` } });
      expect(answer.status()).toBe(200);
      return ((await answer.json()) as { chain: Record<string, unknown> }).chain;
    };
    expect(await chainOf()).toMatchObject({
      intact: true,
      first_mismatch: null,
      mismatched_checkpoint: null,
      checkpoint: { number: checkpoint.id, through: checkpoint.through_id },
      pending: null,
    });

    await rewriteEveryHash();
    const expected = `Audit trail: checkpoint ${checkpoint.id} does not match: entry ${checkpoint.through_id} no longer has the hash the checkpoint signed, so the trail up to it was rewritten and hashed again`;
    await page.reload();
    await expect(page.getByRole("alert").filter({ hasText: "does not match" })).toContainText(expected);
    expect(await chainOf()).toEqual({
      intact: false,
      through: checkpoint.through_id - 1,
      first_mismatch: checkpoint.through_id,
      message: expected,
      checkpoint: null,
      mismatched_checkpoint: checkpoint.id,
      pending: null,
    });
    expect(errors).toEqual([]);
  },
);
