/**
 * A worker that sends (tests only): opens the database at argv[2] and delivers the message whose
 * id is argv[5] through the SMTP server at argv[3], with a lease of argv[4] seconds, as the
 * runner of a server would. The test kills it with SIGKILL at the moment it chooses (mid-send).
 */
import { openDatabase } from "../../db/connection";
import { deliverDueMail } from "../../app/jobs/deliver-mail.server";
import { createMailer } from "../../app/mail/transport.server";

const db = openDatabase(process.argv[2]!);
const origin = "http://localhost:3000";
const mailer = createMailer({ SMTP_URL: process.argv[3]!, APP_URL: origin, RTO_NAME: "Summit" });
await deliverDueMail(db, {
  mailer,
  worker: `doomed-sender-${process.pid}`,
  leaseSeconds: Number(process.argv[4] ?? 2),
  ids: [process.argv[5]!],
  ctx: { origin, rto: { name: "Summit", code: "90001" } },
});
process.stdout.write("done\n");
setInterval(() => {}, 60_000);
