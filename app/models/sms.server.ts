/**
 * SMS (docs/architecture/stack.md §1): a small SmsSender. Outside production every SMS lands in the sms_outbox
 * table, readable at /dev/sms, so the direct debit code can be read while developing and testing.
 * Production sends through Twilio's Programmable Messaging REST API (Messages resource, 2010-04-01),
 * over fetch, with the account SID, auth token and sender from secrets.
 */
import { desc } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { isDeployed, type Env } from "~/lib/env";

export interface Sms {
  brandId: number | null;
  /** E.164, e.g. +31612345678. */
  to: string;
  body: string;
  /** Alphanumeric sender id or number; the adapter's default when absent. */
  from?: string;
}

/** What a send returns: the provider's message id, or why it failed (never throws for an API answer). */
export type SmsResult =
  | { ok: true; id: string }
  | {
      ok: false;
      error: "invalid_number" | "unreachable" | "rejected" | "auth" | "rate_limited" | "provider";
      code?: number;
      message?: string;
    };

export interface SmsSender {
  send(sms: Sms): Promise<SmsResult>;
}

type SmsEnv = Pick<Env, "ENVIRONMENT" | "DB" | "TWILIO_ACCOUNT_SID" | "TWILIO_AUTH_TOKEN" | "SMS_FROM">;

export function smsOutboxAvailable(env: Pick<Env, "ENVIRONMENT">): boolean {
  return !isDeployed(env);
}

export function smsSenderFor(env: SmsEnv, fetcher: typeof fetch = fetch): SmsSender {
  if (!smsOutboxAvailable(env)) {
    if (!env.TWILIO_ACCOUNT_SID || !env.TWILIO_AUTH_TOKEN || !env.SMS_FROM)
      throw new Error("Twilio secrets missing in production");
    return twilioSender(
      { accountSid: env.TWILIO_ACCOUNT_SID, authToken: env.TWILIO_AUTH_TOKEN, from: env.SMS_FROM },
      fetcher,
    );
  }
  return outboxSender(env.DB);
}

export function outboxSender(db: D1Database): SmsSender {
  return {
    async send(sms) {
      const [row] = await getDb(db)
        .insert(schema.smsOutbox)
        .values({ brandId: sms.brandId, to: sms.to, body: sms.body })
        .returning({ id: schema.smsOutbox.id });
      return { ok: true, id: `outbox-${row!.id}` };
    },
  };
}

/**
 * Twilio error codes (https://www.twilio.com/docs/api/errors) mapped to what the caller can act on:
 * the member typed a number that cannot get an SMS, or the site's account has a problem.
 */
const TWILIO_ERRORS: Record<number, Exclude<SmsResult, { ok: true }>["error"]> = {
  21211: "invalid_number", // 'To' number is not a valid phone number
  21614: "invalid_number", // 'To' number is not a valid mobile number
  21408: "unreachable", // permission to send to this region not enabled
  21612: "unreachable", // 'To' number is not currently reachable
  21610: "rejected", // recipient unsubscribed (replied STOP)
  20003: "auth", // authentication failed
  20429: "rate_limited", // too many requests
};

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  from: string;
  baseUrl?: string;
}

/**
 * POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To, From, Body, HTTP Basic
 * auth. 201 answers the Message resource ({ sid, status: "queued", ... }); errors answer
 * { code, message, more_info, status }.
 */
export function twilioSender(config: TwilioConfig, fetcher: typeof fetch = fetch): SmsSender {
  const base = config.baseUrl ?? "https://api.twilio.com";
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const auth = `Basic ${btoa(`${config.accountSid}:${config.authToken}`)}`;
  return {
    async send(sms) {
      let res: Response;
      try {
        res = await fetcher(url, {
          method: "POST",
          headers: {
            Authorization: auth,
            "Content-Type": "application/x-www-form-urlencoded",
            Accept: "application/json",
          },
          body: new URLSearchParams({ To: sms.to, From: sms.from ?? config.from, Body: sms.body }),
        });
      } catch {
        return { ok: false, error: "provider" };
      }
      const body = (await res.json().catch(() => null)) as {
        sid?: unknown;
        status?: unknown;
        code?: unknown;
        message?: unknown;
      } | null;
      if (res.status === 201 || res.status === 200) {
        if (body && typeof body.sid === "string" && body.status !== "failed" && body.status !== "undelivered")
          return { ok: true, id: body.sid };
        return { ok: false, error: "provider" };
      }
      const code = typeof body?.code === "number" ? body.code : undefined;
      const message = typeof body?.message === "string" ? body.message : undefined;
      const error =
        (code && TWILIO_ERRORS[code]) ||
        (res.status === 401 ? "auth" : res.status === 429 ? "rate_limited" : "provider");
      return { ok: false, error, code, message };
    },
  };
}

export type OutboxSms = typeof schema.smsOutbox.$inferSelect;

export async function listSmsOutbox(db: D1Database, limit = 50): Promise<OutboxSms[]> {
  return getDb(db).select().from(schema.smsOutbox).orderBy(desc(schema.smsOutbox.id)).limit(limit);
}
