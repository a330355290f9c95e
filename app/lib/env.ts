/** The Worker's bindings (wrangler.toml). */
export interface Env {
  DB: D1Database;
  PHOTOS: R2Bucket;
  CHAT_ROOM: DurableObjectNamespace;
  /** One notification channel per member (app/chat/hub.ts). */
  MEMBER_HUB: DurableObjectNamespace;
  /** Benchmark baseline only (app/chat/echo.ts). */
  ECHO_ROOM?: DurableObjectNamespace;
  ASSETS: Fetcher;
  RATE_LIMITER: RateLimit;
  MAIL?: SendEmail;
  ENVIRONMENT: "development" | "test" | "production";
  SESSION_SECRET: string;
  PASSWORD_PEPPER: string;
  MAIL_FROM: string;
  /** Production SMS (Twilio Messages API): secrets; absent outside production, where SMS go to the outbox. */
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  /** Sender of SMS: an alphanumeric id (e.g. the brand) or a Twilio number. */
  SMS_FROM?: string;
  /** "sandbox" (default outside production) or "mollie" (always in production). */
  PAYMENT_PROVIDER?: "sandbox" | "mollie";
  /** Secret: wrangler secret put MOLLIE_API_KEY (test_… or live_…). */
  MOLLIE_API_KEY?: string;
}

export const isProduction = (env: Pick<Env, "ENVIRONMENT">) => env.ENVIRONMENT === "production";
