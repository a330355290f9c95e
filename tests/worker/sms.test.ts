/**
 * The SmsSender: the development outbox (D1, /dev/sms) and the Twilio adapter against recorded copies
 * of the answers Twilio documents for POST /2010-04-01/Accounts/{sid}/Messages.json (a fetch stub).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { outboxSender, smsOutboxAvailable, smsSenderFor, twilioSender } from "../../app/models/sms.server";
import { get } from "./fixtures";

const SID = "ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const TOKEN = "test-auth-token";

/** Twilio's documented 201 answer of a created Message (trimmed of nothing that matters). */
const CREATED = {
  account_sid: SID,
  api_version: "2010-04-01",
  body: "Amora: your direct debit code is 123456.",
  date_created: "Thu, 24 Aug 2023 05:01:45 +0000",
  date_sent: null,
  date_updated: "Thu, 24 Aug 2023 05:01:45 +0000",
  direction: "outbound-api",
  error_code: null,
  error_message: null,
  from: "Amora",
  messaging_service_sid: null,
  num_media: "0",
  num_segments: "1",
  price: null,
  price_unit: null,
  sid: "SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  status: "queued",
  subresource_uris: { media: `/2010-04-01/Accounts/${SID}/Messages/SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/Media.json` },
  to: "+31612345678",
  uri: `/2010-04-01/Accounts/${SID}/Messages/SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json`,
};

/** Twilio's error body: { code, message, more_info, status }. */
const twilioError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }), {
    status,
    headers: { "Content-Type": "application/json" },
  });

function stub(answer: () => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetcher = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return answer();
  }) as unknown as typeof fetch;
  return { calls, fetcher };
}

const sms = { brandId: 1, to: "+31612345678", body: "Amora: your direct debit code is 123456." };

describe("Twilio adapter", () => {
  it("posts To, From and Body form-encoded with Basic auth and returns the message sid", async () => {
    const s = stub(
      () => new Response(JSON.stringify(CREATED), { status: 201, headers: { "Content-Type": "application/json" } }),
    );
    const result = await twilioSender({ accountSid: SID, authToken: TOKEN, from: "Amora" }, s.fetcher).send(sms);
    expect(result).toEqual({ ok: true, id: "SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" });
    expect(s.calls).toHaveLength(1);
    const { url, init } = s.calls[0]!;
    expect(url).toBe(`https://api.twilio.com/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(init.method).toBe("POST");
    const headers = init.headers as Record<string, string>;
    expect(headers.Authorization).toBe(`Basic ${btoa(`${SID}:${TOKEN}`)}`);
    expect(headers["Content-Type"]).toBe("application/x-www-form-urlencoded");
    const body = new URLSearchParams(String(init.body));
    expect(Object.fromEntries(body)).toEqual({ To: "+31612345678", From: "Amora", Body: sms.body });
  });

  it("maps Twilio's documented errors to what the caller can act on", async () => {
    const cases: [Response, string, number | undefined][] = [
      [twilioError(400, 21211, "The 'To' number +3161234 is not a valid phone number."), "invalid_number", 21211],
      [twilioError(400, 21614, "'To' number is not a valid mobile number"), "invalid_number", 21614],
      [
        twilioError(
          400,
          21408,
          "Permission to send an SMS has not been enabled for the region indicated by the 'To' number: +31612345678.",
        ),
        "unreachable",
        21408,
      ],
      [twilioError(400, 21610, "Attempt to send to unsubscribed recipient"), "rejected", 21610],
      [twilioError(401, 20003, "Authenticate"), "auth", 20003],
      [twilioError(429, 20429, "Too Many Requests"), "rate_limited", 20429],
      [new Response("<html>Service Unavailable</html>", { status: 503 }), "provider", undefined],
    ];
    for (const [res, error, code] of cases) {
      const result = await twilioSender(
        { accountSid: SID, authToken: TOKEN, from: "Amora" },
        stub(() => res).fetcher,
      ).send(sms);
      expect(result).toMatchObject({ ok: false, error, code });
    }
  });

  it("a network failure or a 201 without a sid is a provider error, never a throw", async () => {
    const down = stub(() => {
      throw new TypeError("fetch failed");
    });
    expect(await twilioSender({ accountSid: SID, authToken: TOKEN, from: "Amora" }, down.fetcher).send(sms)).toEqual({
      ok: false,
      error: "provider",
    });
    const odd = stub(() => new Response("{}", { status: 201 }));
    expect(await twilioSender({ accountSid: SID, authToken: TOKEN, from: "Amora" }, odd.fetcher).send(sms)).toEqual({
      ok: false,
      error: "provider",
    });
  });

  it("production uses Twilio and refuses to run without its secrets; elsewhere SMS go to the outbox", async () => {
    expect(() => smsSenderFor({ ENVIRONMENT: "production", DB: env.DB })).toThrow(/Twilio/);
    const s = stub(() => new Response(JSON.stringify(CREATED), { status: 201 }));
    const prod = smsSenderFor(
      { ENVIRONMENT: "production", DB: env.DB, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, SMS_FROM: "Amora" },
      s.fetcher,
    );
    expect(await prod.send(sms)).toMatchObject({ ok: true });
    expect(s.calls).toHaveLength(1);
    expect(smsOutboxAvailable({ ENVIRONMENT: "production" })).toBe(false);
    expect(smsOutboxAvailable({ ENVIRONMENT: "test" })).toBe(true);
  });
});

describe("SMS outbox", () => {
  it("stores every SMS outside production and shows it at /dev/sms", async () => {
    const to = `+3161${Math.floor(Math.random() * 1e7)
      .toString()
      .padStart(7, "0")}`;
    const result = await outboxSender(env.DB).send({
      brandId: 1,
      to,
      body: "Amora: your direct debit code is 654321.",
    });
    expect(result.ok).toBe(true);
    const row = await env.DB.prepare('SELECT body FROM sms_outbox WHERE "to" = ?1').bind(to).first<{ body: string }>();
    expect(row?.body).toContain("654321");
    const page = await get("/dev/sms");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(to);
    expect(html).toContain("654321");
  });
});
