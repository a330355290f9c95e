import type { ChatRoomApi, MemberHubApi } from "../chat/rpc";
import type { NotifyEvent } from "../models/notify-events";
import type { PaymentCheck } from "../models/payment-rules";

/** The Worker's bindings (wrangler.toml). */
export interface Env {
  DB: D1Database;
  PHOTOS: R2Bucket;
  /** One object per conversation (app/chat/room.ts). */
  CHAT_ROOM: DurableObjectNamespace<ChatRoomApi>;
  /** One notification channel per member (app/chat/hub.ts). */
  MEMBER_HUB: DurableObjectNamespace<MemberHubApi>;
  /** Benchmark baseline only (app/chat/echo.ts). */
  ECHO_ROOM?: DurableObjectNamespace;
  ASSETS: Fetcher;
  RATE_LIMITER: RateLimit;
  MAIL?: SendEmail;
  ENVIRONMENT: "development" | "test" | "production";
  SESSION_SECRET: string;
  PASSWORD_PEPPER: string;
  MAIL_FROM: string;
  /** Events for the notification senders (app/models/notify.server.ts). */
  NOTIFY_QUEUE: Queue<NotifyEvent>;
  /** Payments and refunds whose create answer was lost, looked up again later (app/models/payments.server.ts). */
  PAYMENT_CHECKS: Queue<PaymentCheck>;
  /** HMAC key of the mail provider's bounce/complaint webhook. */
  MAIL_WEBHOOK_SECRET: string;
  VAPID_SUBJECT: string;
  /** Production secrets; development generates a pair on first use (app_keys). */
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  /** Production SMS (Twilio Messages API): secrets; absent outside production, where SMS go to the outbox. */
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  /** Sender of SMS: an alphanumeric id (e.g. the brand) or a Twilio number. */
  SMS_FROM?: string;
  /** "sandbox" (default outside production) or "mollie" (always in production). */
  PAYMENT_PROVIDER?: "sandbox" | "mollie";
  /** Secret: wrangler secret put MOLLIE_API_KEY (test_… or live_…). */
  MOLLIE_API_KEY?: string;
  /**
   * Secret: the operator's bearer token for /api/admin/* (wrangler secret put ADMIN_TOKEN, at least 32
   * characters). Development: .dev.vars (scripts/dev-vars.mjs writes a random one). Absent: refused.
   */
  ADMIN_TOKEN?: string;
}

export const isProduction = (env: Pick<Env, "ENVIRONMENT">) => env.ENVIRONMENT === "production";
