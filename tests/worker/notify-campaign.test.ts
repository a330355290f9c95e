/**
 * The operator's campaign endpoint (POST /api/admin/campaign, decision 124): only with the ADMIN_TOKEN
 * bearer token, only a well-formed campaign leading to a path on the member's own site, and through the
 * real queue and consumer: members who switched the type off (or are invisible, unconfirmed, bounced)
 * get nothing, the same ref never mails anyone twice, and every mail carries List-Unsubscribe.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { isAdmin } from "../../app/lib/admin.server";
import { mailerFor } from "../../app/models/mail.server";
import { deliver } from "../../app/models/notify.server";
import { createMember } from "./fixtures";
import { outboxMailer, senders } from "./notify-support";

const TOKEN = env.ADMIN_TOKEN!;

function campaign(body: unknown, o: { token?: string | null; authorization?: string; contentType?: string } = {}) {
  const headers: Record<string, string> = { "Content-Type": o.contentType ?? "application/json" };
  const token = o.token === undefined ? TOKEN : o.token;
  if (o.authorization) headers.Authorization = o.authorization;
  else if (token !== null) headers.Authorization = `Bearer ${token}`;
  // As curl sends it: no Origin, no cookies.
  return SELF.fetch("http://localhost/api/admin/campaign", {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const mailsTo = (id: string) =>
  env.DB.prepare(
    'SELECT subject, text, headers FROM mail_outbox WHERE "to" = (SELECT email FROM users WHERE id = ?1) ORDER BY id',
  )
    .bind(id)
    .all<{ subject: string; text: string; headers: string | null }>()
    .then((r) => r.results);
const off = (userId: string, type: string, reason = "user") =>
  env.DB.prepare("INSERT INTO notifications_disabled (user_id, type, reason) VALUES (?1, ?2, ?3)")
    .bind(userId, type, reason)
    .run();
const waitForMails = (id: string, n: number) =>
  vi.waitFor(async () => expect((await mailsTo(id)).length).toBe(n), { timeout: 8000, interval: 100 });

let brands = 0;
/** A brand of its own (a copy of Flirtlokaal, brand 3), so a campaign's count is exactly this test's members. */
async function ownBrand(): Promise<number> {
  const row = (await env.DB.prepare("SELECT * FROM brands WHERE id = 3").first<Record<string, unknown>>())!;
  const id = 900 + ++brands;
  Object.assign(row, { id, hostname: `campaign-${id}.localhost`, is_default: 0 });
  const cols = Object.keys(row);
  await env.DB.prepare(`INSERT INTO brands (${cols.join(", ")}) VALUES (${cols.map((_, i) => `?${i + 1}`).join(", ")})`)
    .bind(...cols.map((c) => row[c]))
    .run();
  return id;
}

describe("who may send a campaign", () => {
  it("without the token, with a wrong one or another scheme: 401 JSON, and nothing is queued", async () => {
    const brandId = await ownBrand();
    const fan = await createMember({ brandId });
    const body = { brandId, type: "promotions", ref: "sneaky", path: "/credits" };
    for (const o of [
      { token: null },
      { token: "" },
      { token: "wrong" },
      { token: `${TOKEN}x` },
      { token: TOKEN.slice(0, -1) },
      { authorization: `Basic ${btoa(`admin:${TOKEN}`)}` },
      { authorization: TOKEN },
      { authorization: `Bearer  ${TOKEN}` },
    ]) {
      const res = await campaign(body, o);
      expect(res.status, JSON.stringify(o)).toBe(401);
      expect(res.headers.get("Content-Type")).toContain("application/json");
      expect(await res.json()).toEqual({ error: "unauthorized" });
    }
    // The refused calls queued nothing: the one accepted call after them is the member's only mail.
    const res = await campaign({ ...body, ref: "real" });
    expect(await res.json()).toEqual({ queued: 1 });
    await waitForMails(fan.id, 1);
    expect(await mailsTo(fan.id)).toHaveLength(1);
  });

  it("is refused entirely when no token (or a guessable one) is configured", async () => {
    const request = (token: string) =>
      new Request("http://localhost/api/admin/campaign", { headers: { Authorization: `Bearer ${token}` } });
    expect(await isAdmin(request(TOKEN), { ADMIN_TOKEN: TOKEN })).toBe(true);
    expect(await isAdmin(request("undefined"), {})).toBe(false);
    expect(await isAdmin(request(""), { ADMIN_TOKEN: "" })).toBe(false);
    expect(await isAdmin(request("short-token"), { ADMIN_TOKEN: "short-token" })).toBe(false);
  });

  it("only POST", async () => {
    const res = await SELF.fetch("http://localhost/api/admin/campaign", {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(405);
  });
});

describe("what a campaign may be", () => {
  const good = { brandId: 3, type: "promotions", ref: "spring-2026", path: "/credits" };

  it("anything malformed, huge or leading off the site is 400 and queues nothing", async () => {
    const bad: unknown[] = [
      {},
      [],
      "null",
      "{",
      "not json",
      { ...good, type: "reminders" },
      { ...good, type: "new_message" },
      { ...good, type: undefined },
      { ...good, brandId: true },
      { ...good, brandId: "3 " },
      { ...good, brandId: 0 },
      { ...good, brandId: -3 },
      { ...good, brandId: 1.5 },
      { ...good, brandId: "1e3" },
      { ...good, brandId: null },
      { ...good, brandId: 1e300 },
      { ...good, ref: "" },
      { ...good, ref: "Spring 2026" },
      { ...good, ref: "spring_2026" },
      { ...good, ref: "a".repeat(65) },
      { ...good, ref: ["spring"] },
      { ...good, ref: "spring\n" },
      { ...good, path: "https://evil.test/credits" },
      { ...good, path: "//evil.test" },
      { ...good, path: "/\\evil.test" },
      { ...good, path: "/\t/evil.test" },
      { ...good, path: "/.//evil.test" },
      { ...good, path: "javascript:alert(1)" },
      { ...good, path: "credits" },
      { ...good, path: "" },
      { ...good, path: `/${"a".repeat(5000)}` },
      { ...good, path: 42 },
    ];
    for (const body of bad) {
      const res = await campaign(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get("Content-Type")).toContain("application/json");
    }
    // Another content type than JSON or a form.
    expect((await campaign(JSON.stringify(good), { contentType: "text/plain" })).status).toBe(400);
    // A body over the form limit is refused before it is parsed.
    expect((await campaign({ ...good, filler: "x".repeat(70_000) })).status).toBe(413);
    // A brand that does not exist.
    const unknown = await campaign({ ...good, brandId: 999_999 });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "unknown_brand" });
  });

  it("an operator's form post works as well as JSON", async () => {
    const brandId = await ownBrand();
    await createMember({ brandId });
    const res = await campaign(
      new URLSearchParams({ brandId: String(brandId), type: "news", ref: "form-post", path: "/" }).toString(),
      {
        contentType: "application/x-www-form-urlencoded",
      },
    );
    expect(await res.json()).toEqual({ queued: 1 });
  });
});

describe("who gets a campaign", () => {
  it("members who switched promotions off (or bounced, are invisible, unconfirmed or deleted) get nothing; the mail has List-Unsubscribe", async () => {
    const brandId = await ownBrand();
    const fan = await createMember({ brandId, language: "nl" });
    const noNews = await createMember({ brandId });
    await off(noNews.id, "news");
    const quiet = await createMember({ brandId });
    await off(quiet.id, "promotions");
    const bounced = await createMember({ brandId });
    await off(bounced.id, "promotions", "bounce");
    const unsubscribed = await createMember({ brandId });
    await off(unsubscribed.id, "promotions", "list_unsubscribe");
    const hidden = await createMember({ brandId });
    await env.DB.prepare("UPDATE users SET invisible = 1 WHERE id = ?1").bind(hidden.id).run();
    const unconfirmed = await createMember({ brandId, status: "not_confirmed" });
    const gone = await createMember({ brandId });
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE id = ?1").bind(gone.id).run();
    const elsewhere = await createMember({ brandId: 3 });

    const res = await campaign({
      brandId,
      type: "promotions",
      ref: "spring-2026",
      path: "/credits?utm_campaign=spring-2026",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ queued: 2 });
    await waitForMails(fan.id, 1);
    await waitForMails(noNews.id, 1);
    for (const m of [quiet, bounced, unsubscribed, hidden, unconfirmed, gone, elsewhere])
      expect(await mailsTo(m.id)).toEqual([]);

    const [mail] = await mailsTo(fan.id);
    expect(mail!.subject).toBe("Een speciale aanbieding van Flirtlokaal");
    expect(mail!.text).toContain("http://nl.localhost:8787/credits?utm_campaign=spring-2026");
    const headers = JSON.parse(mail!.headers!) as Record<string, string>;
    expect(headers["List-Unsubscribe"]).toMatch(
      /^<http:\/\/nl\.localhost:8787\/unsubscribe\?u=[^&>]+&t=promotions&s=[0-9a-f]{32}>$/,
    );
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });

  it("a member who turns invisible or switches the type off after queueing is not mailed (the consumer's own rules)", async () => {
    const brandId = await ownBrand();
    const hiding = await createMember({ brandId });
    const quitting = await createMember({ brandId });
    const event = (userId: string) =>
      ({ kind: "campaign", type: "news", userId, ref: "late-check", path: "/" }) as const;
    await env.DB.prepare("UPDATE users SET invisible = 1 WHERE id = ?1").bind(hiding.id).run();
    await off(quitting.id, "news");
    const mailer = outboxMailer(mailerFor(env));
    expect(await deliver(env, event(hiding.id), senders({ mailer }))).toEqual({ mail: false, push: 0 });
    expect(await deliver(env, event(quitting.id), senders({ mailer }))).toEqual({ mail: false, push: 0 });
    expect(mailer.sent).toEqual([]);
  });

  it("the same ref twice mails each member once; a new ref mails again", async () => {
    const brandId = await ownBrand();
    const fan = await createMember({ brandId });
    const body = { brandId, type: "promotions", ref: "spring-2026", path: "/credits" };
    expect(await (await campaign(body)).json()).toEqual({ queued: 1 });
    await waitForMails(fan.id, 1);

    // Sent again (an operator's retry): the fan is queued again but not mailed; a member who joined
    // meanwhile, queued after the fan in the same batch, is mailed: once they are, the fan was handled.
    const newcomer = await createMember({ brandId });
    expect(await (await campaign(body)).json()).toEqual({ queued: 2 });
    await waitForMails(newcomer.id, 1);
    expect(await mailsTo(fan.id)).toHaveLength(1);
    const claims = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM notification_log WHERE user_id = ?1 AND key = 'promotions:spring-2026:mail'",
    )
      .bind(fan.id)
      .first<number>("n");
    expect(claims).toBe(1);

    expect(await (await campaign({ ...body, ref: "summer-2026" })).json()).toEqual({ queued: 2 });
    await waitForMails(fan.id, 2);
  });
});
