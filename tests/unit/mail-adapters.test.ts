/**
 * The two production mailers against recorded answers (decision 172): Cloudflare's send_email binding
 * and Brevo's transactional API. Brevo's bodies are its documented answers to POST /v3/smtp/email.
 */
import { describe, expect, it, vi } from "vitest";
import { brevoMailer, cloudflareMailer, mailerFor, type Mail } from "~/models/mail.server";

const mail: Mail = {
  brandId: 1,
  to: "eva@example.com",
  subject: "Welkom",
  text: "Hallo Eva",
  html: "<p>Hallo Eva</p>",
  fromName: "Flirtlokaal",
  headers: { "List-Unsubscribe": "<https://nl.example/u?t=1>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
};
const recorded = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));

describe("Cloudflare Email Service (send_email binding)", () => {
  it("sends the structured message: from name and address, to, subject, html, text, headers", async () => {
    const send = vi.fn(async () => ({ messageId: "0100019a-cf" }));
    await cloudflareMailer({ send } as unknown as SendEmail, "noreply@nl.example").send(mail);
    expect(send).toHaveBeenCalledWith({
      from: { name: "Flirtlokaal", email: "noreply@nl.example" },
      to: "eva@example.com",
      subject: "Welkom",
      text: "Hallo Eva",
      html: "<p>Hallo Eva</p>",
      headers: mail.headers,
    });
  });
  it("lets a refusal throw (the queue retries) and refuses to run without the binding", async () => {
    const send = vi.fn(async () => {
      throw new Error("E_SENDER_NOT_VERIFIED: sender domain not verified");
    });
    await expect(cloudflareMailer({ send } as unknown as SendEmail, "noreply@nl.example").send(mail)).rejects.toThrow(
      /not verified/,
    );
    await expect(cloudflareMailer(undefined, "noreply@nl.example").send(mail)).rejects.toThrow(/binding missing/);
  });
});

describe("Brevo (HTTP mail API)", () => {
  it("posts the mail with the api-key header; 201 with a messageId is sent", async () => {
    const fetcher = recorded(201, { messageId: "<202611240912.12345678901@smtp-relay.mailin.fr>" });
    await brevoMailer("xkeysib-secret", "noreply@nl.example", fetcher as typeof fetch).send(mail);
    const [url, init] = fetcher.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://api.brevo.com/v3/smtp/email");
    expect((init.headers as Record<string, string>)["api-key"]).toBe("xkeysib-secret");
    expect(JSON.parse(init.body as string)).toEqual({
      sender: { name: "Flirtlokaal", email: "noreply@nl.example" },
      to: [{ email: "eva@example.com" }],
      subject: "Welkom",
      htmlContent: "<p>Hallo Eva</p>",
      textContent: "Hallo Eva",
      headers: mail.headers,
    });
  });
  it("throws on Brevo's refusals with its code, never the key", async () => {
    const cases: [number, unknown, RegExp][] = [
      [400, { code: "invalid_parameter", message: "email is not valid in to" }, /400 invalid_parameter/],
      [401, { code: "unauthorized", message: "Key not found" }, /401 unauthorized/],
      [429, { code: "too_many_requests", message: "Too many requests" }, /429/],
      [500, "<html>oops</html>", /500/],
    ];
    for (const [status, body, expected] of cases) {
      const err = await brevoMailer("xkeysib-secret", "noreply@nl.example", recorded(status, body) as typeof fetch)
        .send(mail)
        .catch((e: Error) => e);
      expect(String(err)).toMatch(expected);
      expect(String(err)).not.toContain("xkeysib-secret");
    }
  });
  it("is what a deployed Worker uses when MAIL_TRANSPORT is http", async () => {
    const fetcher = recorded(201, { messageId: "<1@smtp-relay.mailin.fr>" });
    const env = {
      ENVIRONMENT: "production",
      MAIL_TRANSPORT: "http",
      MAIL_API_KEY: "xkeysib-secret",
      MAIL_FROM: "noreply@nl.example",
    } as never;
    await mailerFor(env, fetcher as typeof fetch).send(mail);
    expect(fetcher).toHaveBeenCalledOnce();
  });
});
