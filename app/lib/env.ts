import type { ChatRoomApi, MemberHubApi } from "../chat/rpc";
import type { NotifyMessage } from "../models/notify-events";
import type { DataMove } from "../models/moves";
import type { PaymentCheck } from "../models/payment-rules";
import type { DsaSubmission } from "../models/dsa-database";

/** An upload re-encoded (EXIF and GPS dropped) by the images Worker. */
export interface ImageVariants {
  width: number;
  height: number;
  full: Uint8Array;
  thumb: Uint8Array;
  blur: Uint8Array;
}

/** The images Worker (workers/images, decision 171) over its service binding. */
export interface ImagesService {
  reencode(bytes: Uint8Array): Promise<ImageVariants>;
}

/** The Worker's bindings (wrangler.toml). */
export interface Env {
  DB: D1Database;
  PHOTOS: R2Bucket;
  /** Evidence of minors and intimate imagery, apart from members' photos (decision 218): admin only. */
  EVIDENCE: R2Bucket;
  /** Days evidence is kept before the daily cron deletes it (default EVIDENCE_RETENTION_DEFAULT_DAYS). */
  EVIDENCE_RETENTION_DAYS?: string;
  /** Image re-encoding in its own Worker, so page requests never load photon (decision 171). */
  IMAGES: ImagesService;
  /** One object per conversation (app/chat/room.ts). */
  CHAT_ROOM: DurableObjectNamespace<ChatRoomApi>;
  /** One notification channel per member (app/chat/hub.ts). */
  MEMBER_HUB: DurableObjectNamespace<MemberHubApi>;
  /** Benchmark baseline only (app/chat/echo.ts). */
  ECHO_ROOM?: DurableObjectNamespace;
  ASSETS: Fetcher;
  RATE_LIMITER: RateLimit;
  /** Destructive and bulk console actions per operator, 10 a minute (decision 217); absent: not limited. */
  CONSOLE_LIMITER?: RateLimit;
  MAIL?: SendEmail;
  /** "staging" and "production" are deployed: real services, secrets checked, no development tools. */
  ENVIRONMENT: "development" | "test" | "staging" | "production";
  SESSION_SECRET: string;
  PASSWORD_PEPPER: string;
  MAIL_FROM: string;
  /** Events for the notification senders (app/models/notify.server.ts). */
  NOTIFY_QUEUE: Queue<NotifyMessage>;
  /** Payments and refunds whose create answer was lost, looked up again later (app/models/payments/checks.server.ts). */
  PAYMENT_CHECKS: Queue<PaymentCheck>;
  /** The one-time moves of D1's messages and credits into the objects, apart from mail and push (decision 194). */
  MOVES_QUEUE: Queue<DataMove>;
  /** Statements of reasons on their way to the EU DSA Transparency Database (decision 218). */
  DSA_QUEUE: Queue<DsaSubmission>;
  /** The database's base address (https://transparency.dsa.ec.europa.eu); unset: the local stand-in. */
  DSA_DATABASE_URL?: string;
  /** Secret: the platform's API token of the database (required once DSA_DATABASE_URL is set). */
  DSA_DATABASE_TOKEN?: string;
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
  /**
   * Secrets, one per company (decision 206): wrangler secret put MOLLIE_API_KEY_<account>, the account
   * being the company's mollie_account (test_… outside production, live_… in production, or an
   * organisation access token access_…). Read by name in app/lib/payments/account.ts.
   */
  [mollieKey: `MOLLIE_API_KEY_${string}`]: string | undefined;
  /**
   * Secrets, optional, one per company: wrangler secret put MOLLIE_ACCESS_TOKEN_<account> (an organization
   * access token, access_…, with settlements.read): that company's monthly settlement import (decisions
   * 206, 209), unless its key is itself such a token. Without one its settlements are not imported.
   */
  [mollieToken: `MOLLIE_ACCESS_TOKEN_${string}`]: string | undefined;
  /**
   * Secret: the operator's bearer token for /api/admin/* (wrangler secret put ADMIN_TOKEN, at least 32
   * characters). Development: .dev.vars (scripts/dev-vars.mjs writes a random one). Absent: refused.
   */
  ADMIN_TOKEN?: string;
  /** The operator console's own hostname (e.g. "console.example.com"): /admin answers only there. Unset: every host. */
  ADMIN_HOST?: string;
  /** Console actions above these need a second admin (decision 217); unset: the defaults in app/models/admin/guard.server.ts. */
  APPROVAL_CREDITS_ABOVE?: string;
  APPROVAL_REFUND_CENTS_ABOVE?: string;
  APPROVAL_CAMPAIGN_ABOVE?: string;
  /** "cloudflare" (default: the MAIL send_email binding) or "http" (MAIL_API_KEY; decision 172). */
  MAIL_TRANSPORT?: "cloudflare" | "http";
  /** Secret of the HTTP mail API when MAIL_TRANSPORT is "http". */
  MAIL_API_KEY?: string;
  /** "1" when a brand offers direct debit: the Twilio SMS secrets are then required (decision 101). */
  DIRECT_DEBIT?: string;
  /** Secret, optional: errors go to Sentry only when it is set (app/lib/sentry.server.ts). */
  SENTRY_DSN?: string;
  /** The deployed commit, set by scripts/deploy.mjs (--var): the release Sentry matches the source maps by. */
  SENTRY_RELEASE?: string;
  /** Where the daily cron fetches the Commission's trusted list of age attestation providers (decision 185). */
  AGE_TRUSTED_LIST_URL?: string;
  /** The list's pinned signing certificates: base64 DER, comma-separated. Without both, no provider is trusted. */
  AGE_TRUSTED_LIST_SIGNERS?: string;
  /** Development only: count D1, object and R2 round trips per request (app/lib/trace.server.ts). */
  TRACE_ROUND_TRIPS?: string;
  /** Development only, with TRACE_ROUND_TRIPS: hold every round trip back this many milliseconds. */
  TRACE_DELAY_MS?: string;
  /** Business event counts (Workers Analytics Engine); optional, absent in tests. */
  METRICS?: AnalyticsEngineDataset;
}

/**
 * Staging or production: a deployed Worker. Secrets are enforced (app/lib/config.server.ts) and the
 * development tools (sandbox payments, outboxes, /dev/*, X-Dev-Country, demo seed) do not exist.
 */
export const isDeployed = (env: Pick<Env, "ENVIRONMENT">) =>
  env.ENVIRONMENT === "production" || env.ENVIRONMENT === "staging";

/** Production only: real money (a live_ Mollie key); staging uses Mollie's test mode. */
export const isLive = (env: Pick<Env, "ENVIRONMENT">) => env.ENVIRONMENT === "production";
