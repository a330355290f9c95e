import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { REACTIVATION_DAYS } from "../../app/lib/constants";
import { runScheduled } from "../../app/lib/scheduled.server";
import { outboxAvailable } from "../../app/models/mail.server";
import { getMember } from "../../app/models/session.server";
import { createMember, get, grantCredits, sessionCookie } from "./fixtures";
import { PASSWORD, mailedToken, memberWithPassword, pageText, send } from "./accounts-support";

const DAY = 86_400;
const context = { env };

async function deleteViaForm(cookie: string) {
  return send(
    "/settings/delete?step=reasons",
    { intent: "delete", reason: "found_someone", remarks: "Met someone here!" },
    { cookie },
  );
}

describe("delete account", () => {
  it("shows the retention offers first, then the reasons", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const offers = await pageText(await get("/settings/delete", { cookie }));
    for (const text of ["Change your e-mail address", "Privacy mode", "Try-out package", "50% discount"])
      expect(offers).toContain(text);
    const reasons = await pageText(await get("/settings/delete?step=reasons", { cookie }));
    for (const text of [
      "It is too expensive",
      "I found someone",
      "I am not looking any more",
      "Problems with the site",
      "Not enough members near me",
      "I do not have time",
      "Other",
      "Remarks",
    ]) {
      expect(reasons).toContain(text);
    }
  });

  it("gives a personal discount code worth the company's delete_discount", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const page = await pageText(await send("/settings/delete", { intent: "discount" }, { cookie }));
    const code = /STAY-[A-Z0-9]+/.exec(page)?.[0];
    expect(code).toBeTruthy();
    const row = await env.DB.prepare("SELECT value_percentage, user_id FROM discount_codes WHERE code = ?1")
      .bind(code)
      .first();
    expect(row).toEqual({ value_percentage: "50", user_id: m.id });
    // Asking twice gives the same code.
    expect(await pageText(await send("/settings/delete", { intent: "discount" }, { cookie }))).toContain(code!);
  });

  it("turns on privacy mode from the offers", async () => {
    const m = await memberWithPassword();
    await send("/settings/delete", { intent: "invisible" }, { cookie: await sessionCookie(m.id) });
    expect((await env.DB.prepare("SELECT invisible FROM users WHERE id = ?1").bind(m.id).first())!.invisible).toBe(1);
  });

  it("needs a reason", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    expect(await pageText(await send("/settings/delete?step=reasons", { intent: "delete" }, { cookie }))).toContain(
      "Please choose a reason.",
    );
    expect(
      (await env.DB.prepare("SELECT deleted_at FROM users WHERE id = ?1").bind(m.id).first())!.deleted_at,
    ).toBeNull();
  });

  it("hides the account at once, ends every session and mails a reactivation link", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const other = await sessionCookie(m.id);
    const res = await deleteViaForm(cookie);
    expect(res.headers.get("Location")).toBe("/account-deleted");
    const row = await env.DB.prepare("SELECT deleted_at, delete_reason, delete_remarks FROM users WHERE id = ?1")
      .bind(m.id)
      .first();
    expect(row).toMatchObject({ delete_reason: "found_someone", delete_remarks: "Met someone here!" });
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?1")
      .bind(m.id)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
    expect((await get("/api/user.php", { cookie: other })).status).toBe(401);
    expect(await getMember(new Request("http://localhost/", { headers: { Cookie: other } }), context)).toBeNull();
    expect(await pageText(await get("/account-deleted"))).toContain(`within ${REACTIVATION_DAYS} days`);
    expect(await mailedToken(m.email, "/reactivate")).toBeTruthy();
  });

  it("keeps a deleted member's profile out of others' sight (members query filters deleted_at)", async () => {
    const m = await memberWithPassword();
    const viewer = await createMember();
    await deleteViaForm(await sessionCookie(m.id));
    // getMember (used for every signed-in request) never resolves a deleted account, even with a fresh session row.
    const stale = await sessionCookie(m.id);
    expect(await getMember(new Request("http://localhost/", { headers: { Cookie: stale } }), context)).toBeNull();
    expect((await get("/api/user.php", { cookie: stale })).status).toBe(401);
    // The viewer is unaffected.
    expect((await get("/api/user.php", { cookie: await sessionCookie(viewer.id) })).status).toBe(200);
  });

  it(`reactivates through the mailed link within ${REACTIVATION_DAYS} days, once`, async () => {
    const m = await memberWithPassword();
    await deleteViaForm(await sessionCookie(m.id));
    const token = await mailedToken(m.email, "/reactivate");
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() - ?2 WHERE id = ?1")
      .bind(m.id, (REACTIVATION_DAYS - 1) * DAY)
      .run();
    expect(await pageText(await get(`/reactivate?token=${token}`))).toContain("Reactivate my account");
    const res = await send("/reactivate", { token });
    expect(res.status).toBe(302);
    expect(
      (await env.DB.prepare("SELECT deleted_at FROM users WHERE id = ?1").bind(m.id).first())!.deleted_at,
    ).toBeNull();
    expect((await send("/login", { email: m.email, password: PASSWORD })).status).toBe(302);
    expect(await pageText(await send("/reactivate", { token }))).toContain("This link has expired or is not valid.");
  });

  it(`does not reactivate after ${REACTIVATION_DAYS} days`, async () => {
    const m = await memberWithPassword();
    await deleteViaForm(await sessionCookie(m.id));
    const token = await mailedToken(m.email, "/reactivate");
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() - ?2 WHERE id = ?1")
      .bind(m.id, REACTIVATION_DAYS * DAY + 60)
      .run();
    expect(await pageText(await send("/reactivate", { token }))).toContain("This link has expired or is not valid.");
    expect(
      (await env.DB.prepare("SELECT deleted_at FROM users WHERE id = ?1").bind(m.id).first())!.deleted_at,
    ).not.toBeNull();
  });

  it(`the daily purge removes accounts deleted more than ${REACTIVATION_DAYS} days ago with their data, expired sessions, links and counters, and keeps the rest`, async () => {
    const old = await memberWithPassword();
    const recent = await memberWithPassword();
    const active = await createMember();
    const now = Math.floor(Date.now() / 1000);
    await grantCredits(old.id, 5, { key: `signup:${old.id}`, reason: "signup" });
    await env.DB.batch([
      env.DB.prepare("INSERT INTO sessions (id_hash, user_id, expires_at) VALUES (?1, ?2, ?3), (?4, ?2, ?5)").bind(
        `gone-${active.id}`,
        active.id,
        now - 1,
        `kept-${active.id}`,
        now + DAY,
      ),
      env.DB.prepare(
        "INSERT INTO tokens (id_hash, user_id, kind, expires_at) VALUES (?1, ?2, 'reset', ?3), (?4, ?2, 'reset', ?5)",
      ).bind(`gone-${active.id}`, active.id, now - DAY - 1, `kept-${active.id}`, now - 1),
      env.DB.prepare("INSERT INTO counters (key, count, expires_at) VALUES (?1, 1, ?2), (?3, 1, ?4)").bind(
        `gone-${active.id}`,
        now - 1,
        `kept-${active.id}`,
        now + DAY,
      ),
      env.DB.prepare("UPDATE users SET deleted_at = ?2 WHERE id = ?1").bind(old.id, now - REACTIVATION_DAYS * DAY - 1),
      env.DB.prepare("UPDATE users SET deleted_at = ?2 WHERE id = ?1").bind(
        recent.id,
        now - (REACTIVATION_DAYS - 1) * DAY,
      ),
      env.DB.prepare("INSERT INTO likes (liker_id, liked_id) VALUES (?1, ?2)").bind(old.id, active.id),
    ]);
    await runScheduled(null, env);
    for (const table of ["sessions", "tokens"]) {
      const left = await env.DB.prepare(`SELECT id_hash FROM ${table} WHERE user_id = ?1 AND id_hash LIKE '%-' || ?1`)
        .bind(active.id)
        .all<{ id_hash: string }>();
      expect(left.results.map((r) => r.id_hash)).toEqual([`kept-${active.id}`]);
    }
    const counters = await env.DB.prepare("SELECT key FROM counters WHERE key LIKE '%-' || ?1")
      .bind(active.id)
      .all<{ key: string }>();
    expect(counters.results.map((r) => r.key)).toEqual([`kept-${active.id}`]);
    const ids = (
      await env.DB.prepare("SELECT id FROM users WHERE id IN (?1, ?2, ?3)")
        .bind(old.id, recent.id, active.id)
        .all<{ id: string }>()
    ).results
      .map((r) => r.id)
      .sort();
    expect(ids).toEqual([recent.id, active.id].sort());
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM profiles WHERE user_id = ?1")
        .bind(old.id)
        .first<{ n: number }>())!.n,
    ).toBe(0);
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM likes WHERE liker_id = ?1").bind(old.id).first<{ n: number }>())!
        .n,
    ).toBe(0);
  });
});

describe("outbox", () => {
  it("lists the mails newest first outside production", async () => {
    const m = await memberWithPassword();
    await send("/reset-password", { email: m.email });
    const res = await get("/dev/outbox");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(m.email);
    expect(html).toMatch(/<a href="http:\/\/localhost\/reset-password\/do\?token=/);
  });

  it("is not available in production", () => {
    expect(outboxAvailable({ ENVIRONMENT: "production" })).toBe(false);
    expect(outboxAvailable({ ENVIRONMENT: "test" })).toBe(true);
    expect(outboxAvailable({ ENVIRONMENT: "development" })).toBe(true);
  });
});
