/**
 * Mail (docs/architecture/stack.md §1): a small Mailer. Production sends through the `send_email` binding (MAIL);
 * everywhere else every mail lands in the mail_outbox table, readable at /dev/outbox, so activation,
 * reset and reactivation links can be read and clicked while developing and testing.
 */
import { desc, eq } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import type { TFunction } from "i18next";
import { isDeployed, type Env } from "~/lib/env";

export interface Mail {
  brandId: number | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  fromName?: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post on notification mails. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** The outbox exists only outside production: /dev/outbox answers 404 there. */
export function outboxAvailable(env: Pick<Env, "ENVIRONMENT">): boolean {
  return !isDeployed(env);
}

export function mailerFor(
  env: Pick<Env, "ENVIRONMENT" | "DB" | "MAIL" | "MAIL_FROM" | "MAIL_TRANSPORT" | "MAIL_API_KEY">,
  fetcher: typeof fetch = fetch,
): Mailer {
  if (!outboxAvailable(env)) {
    if (env.MAIL_TRANSPORT === "http") {
      if (!env.MAIL_API_KEY) throw new Error("MAIL_API_KEY missing (MAIL_TRANSPORT = http)");
      return brevoMailer(env.MAIL_API_KEY, env.MAIL_FROM, fetcher);
    }
    return cloudflareMailer(env.MAIL, env.MAIL_FROM);
  }
  return {
    async send(mail) {
      await getDb(env.DB)
        .insert(schema.mailOutbox)
        .values({
          brandId: mail.brandId,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.headers ?? null,
        });
    },
  };
}

/**
 * Cloudflare Email Service through the send_email binding: the structured send() with from (name and
 * address of an onboarded domain), to, subject, html, text and headers. A rejection throws, so the
 * notification queue retries it.
 */
export function cloudflareMailer(binding: SendEmail | undefined, from: string): Mailer {
  return {
    async send(mail) {
      if (!binding) throw new Error("MAIL binding missing");
      await binding.send({
        from: { name: mail.fromName ?? "", email: from },
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
      });
    },
  };
}

/**
 * Brevo's transactional API (decision 172): POST /v3/smtp/email with the api-key header; 201 with a
 * messageId is sent. Any other answer throws with Brevo's code and message (never the key), so the
 * queue retries; 400 errors would fail again and end in the queue's retry limit.
 */
export function brevoMailer(apiKey: string, from: string, fetcher: typeof fetch = fetch): Mailer {
  return {
    async send(mail) {
      const res = await fetcher("https://api.brevo.com/v3/smtp/email", {
        method: "POST",
        headers: { "api-key": apiKey, "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          sender: { name: mail.fromName ?? "", email: from },
          to: [{ email: mail.to }],
          subject: mail.subject,
          htmlContent: mail.html,
          textContent: mail.text,
          ...(mail.headers ? { headers: mail.headers } : {}),
        }),
      });
      const body = (await res.json().catch(() => ({}))) as { messageId?: string; code?: string; message?: string };
      if (res.status !== 201 || !body.messageId)
        throw new Error(`Brevo refused the mail: ${res.status} ${body.code ?? ""} ${body.message ?? ""}`.trim());
    },
  };
}

export type OutboxMail = typeof schema.mailOutbox.$inferSelect;

export async function listOutbox(d1: D1Database, to?: string, limit = 50): Promise<OutboxMail[]> {
  const O = schema.mailOutbox;
  return getDb(d1)
    .select()
    .from(O)
    .where(to ? eq(O.to, to) : undefined)
    .orderBy(desc(O.id))
    .limit(limit);
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export type AccountMailKind =
  | "activate"
  | "reset"
  | "mailChange"
  | "mailUndo"
  | "reactivate"
  | "lockout"
  | "signupKnown"
  | "signupConfirm";

/**
 * A mail with one call to action, in the member's language (t is fixed to their language and the
 * account namespace): greeting, body, the link as a button and as plain text, and a footer.
 */
export function accountMail(
  t: TFunction,
  kind: AccountMailKind,
  o: { brandId: number; brandName: string; to: string; name: string; link: string; vars?: Record<string, unknown> },
): Mail {
  const vars = { brand: o.brandName, name: o.name, ...o.vars };
  const { text, html } = renderMail({
    greeting: t("mail.greeting", vars),
    body: t(`mail.${kind}.body`, vars),
    action: t(`mail.${kind}.action`, vars),
    link: o.link,
    footer: [t("mail.footer", vars)],
  });
  return { brandId: o.brandId, to: o.to, subject: t(`mail.${kind}.subject`, vars), text, html, fromName: o.brandName };
}

const LINK = /(https?:\/\/[^\s<>"]+)/g;

/** Line ends as typed in a form (CRLF) or a file (CR) become one "\n", so both parts break where the writer did. */
const lines = (s: string) => s.replace(/\r\n?/g, "\n");

/** Text as HTML: escaped first, then each line break a <br> (nothing typed can become markup). */
const htmlLines = (s: string) => escapeHtml(lines(s)).replaceAll("\n", "<br>\n");

/**
 * The text and HTML of a mail with one call to action: greeting, body, the link as a button and as
 * plain text, and footer lines (their URLs become links in the HTML).
 */
export function renderMail(m: {
  greeting: string;
  body: string;
  /** A paragraph after the body (a team-run sender's warning, decision 179). */
  note?: string;
  action: string;
  link: string;
  footer: string[];
}) {
  const body = lines(m.note ? `${m.body}\n\n${m.note}` : m.body);
  const text = `${m.greeting}\n\n${body}\n\n${m.action}: ${m.link}\n\n${m.footer.join("\n")}\n`;
  const footer = m.footer
    .map(
      (line) =>
        `<p style="font-size:13px;color:#555">${escapeHtml(line).replace(LINK, (u) => `<a href="${u}">${u}</a>`)}</p>`,
    )
    .join("");
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${htmlLines(m.greeting)}</p><p>${htmlLines(m.body)}</p>${m.note ? `<p>${htmlLines(m.note)}</p>` : ""}
<p><a href="${escapeHtml(m.link)}" style="display:inline-block;padding:10px 18px;background:#c8102e;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(m.action)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(m.link)}</p>${footer}
</body></html>`;
  return { text, html };
}
