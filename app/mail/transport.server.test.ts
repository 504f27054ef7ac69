import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEml, resetLinkIn } from "../../tests/support/eml";
import { passwordResetLink } from "~/utils/public-link.server";
import { passwordResetEmail } from "./password-reset.server";
import { createMailer, createOutboxMailer, createSmtpMailer, defaultFrom } from "./transport.server";

const rto = { name: "Summit Crane & Rigging Training", code: "45678" };
const link = "http://localhost:3000/reset-password/AbCdEfGhIjKlMnOpQrStUvWxYz012_-9";
const message = () => passwordResetEmail({ to: "jordan@test.example", fullName: "Jordan Lee Mitchell", link, validMinutes: 60, rto });

describe("the reset email", () => {
  it("greets by first name, carries the link on its own line, and says how long it lasts", () => {
    const m = message();
    expect(m.subject).toBe("Reset your Summit Crane & Rigging Training password");
    expect(m.text).toContain("Hello Jordan,");
    expect(m.text.split("\n")).toContain(link);
    expect(m.text).toContain("expires in 60 minutes");
    expect(m.text).toContain("If you did not ask for this");
    expect(m.html).toContain(`href="${link}"`);
  });

  it("escapes names in the HTML part", () => {
    const m = passwordResetEmail({ to: "x@test.example", fullName: "<script>alert(1)</script>", link, validMinutes: 60, rto });
    expect(m.html).not.toContain("<script>");
    expect(m.html).toContain("&lt;script&gt;");
  });

  it("builds the link under APP_URL when set, else under the request's origin only when that is this machine", () => {
    const request = new Request("http://10.1.2.3:3000/forgot-password");
    expect(passwordResetLink(request, "tok", "https://portal.example.com/")).toBe("https://portal.example.com/reset-password/tok");
    expect(passwordResetLink(request, "tok", "https://example.com/training")).toBe("https://example.com/training/reset-password/tok");
    expect(passwordResetLink(request, "tok", undefined)).toBeNull();
    expect(passwordResetLink(new Request("http://attacker.example/forgot-password"), "tok", undefined)).toBeNull();
    expect(passwordResetLink(new Request("http://attacker.example/forgot-password"), "tok", "https://portal.example.com")).toBe(
      "https://portal.example.com/reset-password/tok",
    );
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]) {
      expect(passwordResetLink(new Request(`${origin}/forgot-password`), "tok", undefined)).toBe(`${origin}/reset-password/tok`);
    }
  });
});

describe("the outbox transport", () => {
  const dir = path.resolve("tests/.tmp", `outbox-unit-${crypto.randomUUID()}`);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes each message as a readable .eml file", async () => {
    const mailer = createOutboxMailer(dir, defaultFrom({ RTO_NAME: rto.name }));
    const sent = await mailer.send(message());
    expect(sent.file).toBeDefined();
    expect(path.dirname(sent.file!)).toBe(dir);
    expect(sent.file!).toMatch(/\d{4}-\d{2}-\d{2}T.*\.eml$/);
    const raw = fs.readFileSync(sent.file!, "utf8");
    expect(raw).toMatch(/^From: "Summit Crane & Rigging Training" <no-reply@localhost>$/m);
    expect(raw).toMatch(/^To: jordan@test.example$/m);
    expect(raw).toMatch(/^Subject: Reset your Summit Crane & Rigging Training password$/m);
    expect(raw).toMatch(/^Message-ID: <.+>$/m);
    expect(raw).toMatch(/^Date: /m);
    // Short lines keep the text part 7bit: the link reads whole in the raw file.
    expect(raw.split("\n")).toContain(link);
    const mail = parseEml(raw);
    expect(mail.text).toContain("Hello Jordan,");
    expect(mail.text!.split("\n").every((l) => l.length <= 76)).toBe(true);
    expect(resetLinkIn(mail)).toBe(link);
    expect(mail.html).toContain("Choose a new password");
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".partial"))).toEqual([]);
  });

  it("keeps every message, one file each", async () => {
    const mailer = createOutboxMailer(dir, "Summit <no-reply@summit.example>");
    await mailer.send(message());
    await mailer.send({ ...message(), to: "second@test.example" });
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".eml"));
    expect(files.length).toBe(3);
    const recipients = files.map((f) => parseEml(fs.readFileSync(path.join(dir, f), "utf8")).headers.to);
    expect(recipients).toContain("second@test.example");
  });

  it("is the mailer when no SMTP server is configured", async () => {
    const mailer = createMailer({ RTO_NAME: rto.name, outboxDir: dir });
    expect(mailer.kind).toBe("outbox");
    await mailer.send(passwordResetEmail({ to: "third@test.example", fullName: "Third", link, validMinutes: 60, rto }));
    const found = fs
      .readdirSync(dir)
      .map((f) => parseEml(fs.readFileSync(path.join(dir, f), "utf8")))
      .find((m) => m.headers.to === "third@test.example");
    expect(found && resetLinkIn(found)).toBe(link);
  });
});

describe("the SMTP transport", () => {
  const received: Array<{ from: string; to: string[]; data: string; user?: string }> = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      secure: false,
      disabledCommands: ["STARTTLS"],
      authOptional: true,
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === "mailer" && auth.password === "s3cret") return callback(null, { user: auth.username });
        return callback(new Error("Invalid username or password"));
      },
      onRcptTo(address, _session, callback) {
        if (address.address.endsWith("@refused.example")) return callback(new Error("Mailbox unavailable"));
        return callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString("utf8"),
            user: session.user as string | undefined,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server as unknown as { server: { address(): AddressInfo } }).server.address().port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("delivers the message to the server, link intact", async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, "Summit <no-reply@summit.example>");
    expect(mailer.kind).toBe("smtp");
    const sent = await mailer.send(message());
    expect(sent.messageId).toMatch(/^<.+>$/);
    const last = received.at(-1)!;
    expect(last.from).toBe("no-reply@summit.example");
    expect(last.to).toEqual(["jordan@test.example"]);
    const mail = parseEml(last.data);
    expect(mail.headers.subject).toBe("Reset your Summit Crane & Rigging Training password");
    expect(resetLinkIn(mail)).toBe(link);
  });

  it("signs in with the credentials in SMTP_URL and is chosen whenever SMTP_URL is set", async () => {
    const mailer = createMailer({ SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${port}`, RTO_NAME: rto.name, MAIL_FROM: "Training <training@summit.example>" });
    expect(mailer.kind).toBe("smtp");
    await mailer.send(passwordResetEmail({ to: "auth@test.example", fullName: "Auth Person", link, validMinutes: 60, rto }));
    const last = received.at(-1)!;
    expect(last.user).toBe("mailer");
    expect(last.from).toBe("training@summit.example");
    expect(last.to).toEqual(["auth@test.example"]);
  });

  it("reports a refusal as an error rather than losing it silently", async () => {
    const wrongPassword = createSmtpMailer(`smtp://mailer:wrong@127.0.0.1:${port}`, "Summit <no-reply@summit.example>");
    await expect(wrongPassword.send(message())).rejects.toThrow();
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, "Summit <no-reply@summit.example>");
    await expect(mailer.send({ ...message(), to: "someone@refused.example" })).rejects.toThrow(/Mailbox unavailable|Can't send mail/);
    expect(received.some((r) => r.to.includes("someone@refused.example"))).toBe(false);
  });
});

describe("the From address", () => {
  it("is MAIL_FROM when set, else the organisation at the portal's host", () => {
    expect(defaultFrom({ RTO_NAME: rto.name, MAIL_FROM: "A <a@b.example>" })).toBe("A <a@b.example>");
    expect(defaultFrom({ RTO_NAME: rto.name, APP_URL: "https://portal.summit.example/x" })).toBe(
      '"Summit Crane & Rigging Training" <no-reply@portal.summit.example>',
    );
    expect(defaultFrom({ RTO_NAME: 'Odd "Name"' })).toBe('"Odd Name" <no-reply@localhost>');
  });
});
