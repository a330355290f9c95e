import { describe, expect, it } from "vitest";
import { configProblems, describeProblems, DEV_SECRETS } from "~/lib/config.server";
import type { Env } from "~/lib/env";

const good = {
  ENVIRONMENT: "production",
  MAIL: {},
  SESSION_SECRET: "s".repeat(40),
  PASSWORD_PEPPER: "p".repeat(40),
  MAIL_WEBHOOK_SECRET: "w".repeat(40),
  ADMIN_TOKEN: "a".repeat(40),
  VAPID_PUBLIC_KEY: "B".repeat(87),
  VAPID_PRIVATE_KEY: "k".repeat(43),
  MOLLIE_API_KEY_AMORA: "live_" + "m".repeat(30),
  AGE_TRUSTED_LIST_URL: "https://trusted-list.example/av-tl.xml",
  AGE_TRUSTED_LIST_SIGNERS: "MII" + "C".repeat(300),
} as unknown as Env;
const problems = (change: Record<string, unknown>) => describeProblems(configProblems({ ...good, ...change } as Env));

describe("the secrets check (decision 170)", () => {
  it("passes a complete production and never checks development or tests", () => {
    expect(configProblems(good)).toEqual([]);
    expect(configProblems({ ENVIRONMENT: "development" } as Env)).toEqual([]);
    expect(configProblems({ ENVIRONMENT: "test" } as Env)).toEqual([]);
  });
  it("checks staging like production, with Mollie's test mode allowed there only (each company's key, decision 206)", () => {
    expect(configProblems({ ENVIRONMENT: "staging" } as Env).map((p) => p.name)).toContain("SESSION_SECRET");
    expect(problems({ ENVIRONMENT: "staging", MOLLIE_API_KEY_AMORA: "test_" + "m".repeat(30) })).toBe("");
    expect(problems({ MOLLIE_API_KEY_AMORA: "test_" + "m".repeat(30) })).toBe("MOLLIE_API_KEY_AMORA (wrong kind)");
    // Staging never holds a live key: nothing outside production moves real money.
    expect(problems({ ENVIRONMENT: "staging" })).toBe("MOLLIE_API_KEY_AMORA (wrong kind)");
    expect(problems({ MOLLIE_API_KEY_HERZKLANG: "live_" + "m".repeat(10) })).toBe(
      "MOLLIE_API_KEY_HERZKLANG (too short)",
    );
    // An organisation access token serves in either (test mode outside production).
    expect(problems({ MOLLIE_API_KEY_AMORA: "access_" + "m".repeat(30) })).toBe("");
  });
  it("names each missing, short or development secret", () => {
    expect(problems({ SESSION_SECRET: undefined })).toBe("SESSION_SECRET (missing)");
    expect(problems({ SESSION_SECRET: "   " })).toBe("SESSION_SECRET (missing)");
    expect(problems({ PASSWORD_PEPPER: "p".repeat(31) })).toBe("PASSWORD_PEPPER (too short)");
    for (const dev of DEV_SECRETS) expect(problems({ ADMIN_TOKEN: dev })).toContain("ADMIN_TOKEN (development value)");
    expect(problems({ VAPID_PUBLIC_KEY: undefined, VAPID_PRIVATE_KEY: undefined })).toBe(
      "VAPID_PUBLIC_KEY (missing), VAPID_PRIVATE_KEY (missing)",
    );
  });
  it("refuses one value used for two secrets", () => {
    expect(problems({ PASSWORD_PEPPER: "s".repeat(40) })).toContain("development value");
  });
  it("requires the SMS keys only where direct debit is on, and the mail API key only for the HTTP adapter", () => {
    expect(problems({ DIRECT_DEBIT: "1" })).toBe(
      "TWILIO_ACCOUNT_SID (missing), TWILIO_AUTH_TOKEN (missing), SMS_FROM (missing)",
    );
    expect(
      problems({
        DIRECT_DEBIT: "1",
        TWILIO_ACCOUNT_SID: "XX" + "0".repeat(32),
        TWILIO_AUTH_TOKEN: "t".repeat(32),
        SMS_FROM: "Amora",
      }),
    ).toBe("TWILIO_ACCOUNT_SID (wrong kind)");
    expect(problems({ MAIL_TRANSPORT: "http" })).toBe("MAIL_API_KEY (missing)");
    expect(problems({ MAIL: undefined })).toBe("MAIL (send_email binding) (missing)");
    expect(problems({ MAIL: undefined, MAIL_TRANSPORT: "http", MAIL_API_KEY: "k".repeat(30) })).toBe("");
  });
  it("never puts a value in what it reports", () => {
    const secret = "leaky-" + "x".repeat(10);
    expect(problems({ SESSION_SECRET: secret })).not.toContain(secret);
  });
});
