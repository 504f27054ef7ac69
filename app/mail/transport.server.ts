import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { env } from "~/env.server";
import { logLine } from "~/utils/log.server";

/**
 * How the portal sends mail. With SMTP_URL set, over SMTP through nodemailer. Without it, the
 * embedded outbox: each message is composed by nodemailer exactly as it would be sent and
 * written as an .eml file (open it in any mail client) under OUTBOX_DIR, default data/outbox,
 * so a fresh install with nothing configured still delivers its mail somewhere a person can read.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** the Message-ID, stable for one outbox message, so a copy sent twice is recognisably the same mail */
  messageId?: string;
  headers?: Record<string, string>;
}

export interface SentMail {
  messageId: string;
  /** the .eml written, for the outbox */
  file?: string;
}

export interface Mailer {
  kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<SentMail>;
}

export const DEFAULT_OUTBOX_DIR = "data/outbox";

/**
 * How long one SMTP send may take at each step. Together they stay well inside the outbox's
 * lease (LEASE_SECONDS in app/models/outbox.server.ts), so a slow server makes a send fail and
 * be retried rather than outlive its claim and be taken by a second worker.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 40_000 };

/** Sends through an SMTP server: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465. */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    kind: "smtp",
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      return { messageId: info.messageId };
    },
  };
}

function outboxFileName(now: Date): string {
  return `${now.toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}.eml`;
}

/** Writes each message to `dir` as an RFC 5322 .eml file, named by time so they sort. */
export function createOutboxMailer(dir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "outbox",
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, outboxFileName(new Date()));
      // Written under a temporary name and renamed, so a reader never sees half a message.
      const partial = `${file}.partial`;
      await fs.writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await fs.rename(partial, file);
      // the file's name only: the address and the body (a reset link) stay in the file
      logLine({ event: "mail-written", file });
      return { messageId: info.messageId, file };
    },
  };
}

/** The From address: MAIL_FROM, else the organisation's name at the portal's host. */
export function defaultFrom(settings: { MAIL_FROM?: string; APP_URL?: string; RTO_NAME: string }): string {
  if (settings.MAIL_FROM) return settings.MAIL_FROM;
  const host = settings.APP_URL ? new URL(settings.APP_URL).hostname : "localhost";
  return `"${settings.RTO_NAME.replace(/["\\]/g, "")}" <no-reply@${host}>`;
}

export function createMailer(settings: { SMTP_URL?: string; MAIL_FROM?: string; APP_URL?: string; RTO_NAME: string; outboxDir?: string }): Mailer {
  const from = defaultFrom(settings);
  if (settings.SMTP_URL) return createSmtpMailer(settings.SMTP_URL, from);
  return createOutboxMailer(path.resolve(settings.outboxDir ?? DEFAULT_OUTBOX_DIR), from);
}

let mailer: Mailer | undefined;

/** The process's mailer, chosen once from the environment. */
export function getMailer(): Mailer {
  mailer ??= createMailer({ ...env(), outboxDir: env().OUTBOX_DIR });
  return mailer;
}
