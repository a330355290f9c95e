/**
 * Mail (DESIGN section 1): a small Mailer. Production sends through the `send_email` binding (MAIL);
 * everywhere else every mail lands in the mail_outbox table, readable at /dev/outbox, so activation,
 * reset and reactivation links can be read and clicked while developing and testing.
 */
import type { TFunction } from "i18next";
import { isProduction, type Env } from "~/lib/env";

export interface Mail {
  brandId: number | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  fromName?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** The outbox exists only outside production: /dev/outbox answers 404 there. */
export function outboxAvailable(env: Pick<Env, "ENVIRONMENT">): boolean {
  return !isProduction(env);
}

export function mailerFor(env: Pick<Env, "ENVIRONMENT" | "DB" | "MAIL" | "MAIL_FROM">): Mailer {
  if (!outboxAvailable(env)) {
    return {
      async send(mail) {
        if (!env.MAIL) throw new Error("MAIL binding missing in production");
        await env.MAIL.send({
          from: { name: mail.fromName ?? "", email: env.MAIL_FROM },
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
      },
    };
  }
  return {
    async send(mail) {
      await env.DB.prepare("INSERT INTO mail_outbox (brand_id, \"to\", subject, text, html) VALUES (?1, ?2, ?3, ?4, ?5)")
        .bind(mail.brandId, mail.to, mail.subject, mail.text, mail.html)
        .run();
    },
  };
}

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: number;
}

export async function listOutbox(d1: D1Database, limit = 50): Promise<OutboxMail[]> {
  const { results } = await d1
    .prepare('SELECT id, "to", subject, text, html, created_at FROM mail_outbox ORDER BY id DESC LIMIT ?1')
    .bind(limit)
    .all<OutboxMail>();
  return results;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export type AccountMailKind = "activate" | "reset" | "mailChange" | "mailUndo" | "reactivate" | "lockout";

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
  const subject = t(`mail.${kind}.subject`, vars);
  const body = t(`mail.${kind}.body`, vars);
  const action = t(`mail.${kind}.action`, vars);
  const greeting = t("mail.greeting", vars);
  const footer = t("mail.footer", vars);
  const text = `${greeting}\n\n${body}\n\n${action}: ${o.link}\n\n${footer}\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p>
<p><a href="${escapeHtml(o.link)}" style="display:inline-block;padding:10px 18px;background:#c8102e;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(o.link)}</p><p style="font-size:13px;color:#555">${escapeHtml(footer)}</p>
</body></html>`;
  return { brandId: o.brandId, to: o.to, subject, text, html, fromName: o.brandName };
}
