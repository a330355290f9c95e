import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { NOTIFICATION_TYPES } from "../../app/lib/constants";
import { createMember, get, grantCredits, sessionCookie } from "./fixtures";
import { PASSWORD, lastMailTo, mailedToken, memberWithPassword, pageText, send } from "./accounts-support";
import { hashPassword } from "../../app/lib/password";
import { conversationView } from "../../app/models/chat.server";
import { cid, pair, roomStub, PRICES } from "./chat-support";

describe("settings", () => {
  it("is for members only", async () => {
    const res = await get("/settings");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login?redirectTo=%2Fsettings");
  });

  it("changes the password only with the right old password, ending the other sessions", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const other = await sessionCookie(m.id);
    const wrong = await send(
      "/settings",
      { intent: "password", old_password: "not-it-at-all", password: "Brand-new-1", password_confirm: "Brand-new-1" },
      { cookie },
    );
    expect(await pageText(wrong)).toContain("Please check your old password.");
    const mismatch = await send(
      "/settings",
      { intent: "password", old_password: PASSWORD, password: "Brand-new-1", password_confirm: "Brand-new-2" },
      { cookie },
    );
    expect(await pageText(mismatch)).toContain("The entered passwords are not the same.");
    const ok = await send(
      "/settings",
      { intent: "password", old_password: PASSWORD, password: "Brand-new-1", password_confirm: "Brand-new-1" },
      { cookie },
    );
    expect(await pageText(ok)).toContain("Your password has been changed.");
    expect((await get("/api/user.php", { cookie })).status).toBe(200);
    expect((await get("/api/user.php", { cookie: other })).status).toBe(401);
    expect((await send("/login", { email: m.email, password: "Brand-new-1" })).status).toBe(302);
  });

  it("changes the e-mail address after confirmation through /mail-change/do", async () => {
    const m = await memberWithPassword({ status: "not_confirmed" });
    const cookie = await sessionCookie(m.id);
    expect(
      await pageText(
        await send("/settings", { intent: "email", new_email: "no-at-sign", password: PASSWORD }, { cookie }),
      ),
    ).toContain("New email adress is invalid.");
    expect(
      await pageText(await send("/settings", { intent: "email", new_email: m.email, password: PASSWORD }, { cookie })),
    ).toContain("This is already your e-mail address.");
    const fresh = `moved-${Date.now()}@example.com`;
    expect(
      await pageText(await send("/settings", { intent: "email", new_email: fresh, password: PASSWORD }, { cookie })),
    ).toContain("We have sent a confirmation link");
    // Nothing to the current address yet: nothing has changed.
    expect(await lastMailTo(m.email)).toBeNull();
    const token = await mailedToken(fresh, "/mail-change/do");
    // Not changed until the link is used (and the GET alone changes nothing).
    expect(await pageText(await get(`/mail-change/do?token=${token}`))).toContain(fresh);
    expect((await env.DB.prepare("SELECT email FROM users WHERE id = ?1").bind(m.id).first())!.email).toBe(m.email);
    expect(await pageText(await send("/mail-change/do", { token }))).toContain("Your e-mail address has been changed.");
    expect(await env.DB.prepare("SELECT email, status FROM users WHERE id = ?1").bind(m.id).first()).toEqual({
      email: fresh,
      status: "confirmed",
    });
    const again = await send("/mail-change/do", { token });
    expect(again.status).toBe(400);
    expect(await pageText(again)).toContain("Link expired or invalid");
  });

  it("answers a taken address as a free one; its owner is told, nothing changes (decision 238)", async () => {
    const m = await memberWithPassword();
    const owner = await createMember();
    const cookie = await sessionCookie(m.id);
    const fresh = `free-${Date.now()}@example.com`;
    const answer = async (email: string) => {
      const res = await send("/settings", { intent: "email", new_email: email, password: PASSWORD }, { cookie });
      // The page's script nonce is new on every response; everything else must be the same.
      return { status: res.status, page: (await pageText(res)).replace(/nonce="[^"]*"/g, 'nonce=""') };
    };
    const free = await answer(fresh);
    const taken = await answer(owner.email);
    // The same page, byte for byte: the form tells no one whether an address has an account.
    expect(taken).toEqual(free);
    expect(taken.page).toContain("We have sent a confirmation link");
    expect(taken.page).not.toContain("already owns an account");
    // The owner of the taken address gets the notice, no link that could change anything.
    const notice = await lastMailTo(owner.email);
    expect(notice?.subject).toContain("Someone tried to use your e-mail address");
    expect(notice?.text).not.toContain("/mail-change/do");
    expect(await env.DB.prepare("SELECT email FROM users WHERE id = ?1").bind(m.id).first("email")).toBe(m.email);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM tokens WHERE user_id = ?1 AND payload = ?2")
        .bind(m.id, owner.email)
        .first("n"),
    ).toBe(0);
    // The free address got its link; the member's own address nothing at all (both answers alike there too).
    expect(await mailedToken(fresh, "/mail-change/do")).toBeTruthy();
    expect(await lastMailTo(m.email)).toBeNull();
  });

  it("refuses used, expired, forged and other brands' links with a translated 400, changing nothing", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const fresh = `refused-${Date.now()}@example.com`;
    await send("/settings", { intent: "email", new_email: fresh, password: PASSWORD }, { cookie });
    const token = await mailedToken(fresh, "/mail-change/do");
    const refused = async (res: Response, text = "Link expired or invalid") => {
      expect(res.status).toBe(400);
      expect(await pageText(res)).toContain(text);
    };
    // Another brand's site (de.localhost is brand 2, in German): the link is not for it.
    await refused(await get(`/mail-change/do?token=${token}`, { host: "de.localhost" }), "Link abgelaufen");
    await refused(await send("/mail-change/do", { token }, { host: "de.localhost" }), "Link abgelaufen");
    await refused(await get("/mail-change/do?token=forged-token"));
    await refused(await send("/mail-change/do", { token: "forged-token" }));
    await refused(await send("/mail-change/undo", { token: "forged-token" }));
    await env.DB.prepare("UPDATE tokens SET expires_at = 1 WHERE user_id = ?1 AND kind = 'mail_change'")
      .bind(m.id)
      .run();
    await refused(await get(`/mail-change/do?token=${token}`));
    await refused(await send("/mail-change/do", { token }));
    expect(await env.DB.prepare("SELECT email FROM users WHERE id = ?1").bind(m.id).first("email")).toBe(m.email);
  });

  it("tells the old address once the change is done; its link undoes it and signs every device out (decisions 087, 238)", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const other = await sessionCookie(m.id);
    const fresh = `thief-${Date.now()}@example.com`;
    const second = `second-${Date.now()}@example.com`;
    await send("/settings", { intent: "email", new_email: fresh, password: PASSWORD }, { cookie });
    await send("/settings", { intent: "email", new_email: second, password: PASSWORD }, { cookie });
    expect(await lastMailTo(m.email)).toBeNull();
    // The thief confirms the new address: the account now answers to it, and the old address is told.
    expect(
      await pageText(await send("/mail-change/do", { token: await mailedToken(fresh, "/mail-change/do") })),
    ).toContain("Your e-mail address has been changed.");
    expect(await env.DB.prepare("SELECT email FROM users WHERE id = ?1").bind(m.id).first("email")).toBe(fresh);
    const mail = await lastMailTo(m.email);
    expect(mail?.subject).toContain("has been changed");
    expect(mail?.text).toContain(fresh);
    const undo = await mailedToken(m.email, "/mail-change/undo");
    // The other address asked for is not the member's to confirm any more.
    const stale = await send("/mail-change/do", { token: await mailedToken(second, "/mail-change/do") });
    expect(stale.status).toBe(400);
    // The undo link is this brand's only; the link alone changes nothing (mail scanners prefetch links).
    expect((await send("/mail-change/undo", { token: undo }, { host: "de.localhost" })).status).toBe(400);
    expect(await pageText(await get(`/mail-change/undo?token=${undo}`))).toContain(m.email);
    expect(await env.DB.prepare("SELECT email FROM users WHERE id = ?1").bind(m.id).first("email")).toBe(fresh);
    expect(await pageText(await send("/mail-change/undo", { token: undo }))).toContain(
      "Your previous e-mail address is back",
    );
    expect(await env.DB.prepare("SELECT email FROM users WHERE id = ?1").bind(m.id).first("email")).toBe(m.email);
    // Every session ends, the one that made the change included.
    expect((await get("/api/user.php", { cookie })).status).toBe(401);
    expect((await get("/api/user.php", { cookie: other })).status).toBe(401);
    // Used once; a forged token does nothing.
    const used = await send("/mail-change/undo", { token: undo });
    expect(used.status).toBe(400);
    expect(await pageText(used)).toContain("Link expired or invalid");
  });

  it("confirming a changed address before activation activates the profile and delivers the held messages", async () => {
    const { alice, bob, conversationId } = await pair({
      status: "not_confirmed",
      profileStatus: "disabled",
      passwordHash: await hashPassword(PASSWORD, env.PASSWORD_PEPPER),
    });
    expect(
      await roomStub(env, conversationId).send({
        conversationId,
        senderId: alice.id,
        prices: PRICES,
        clientId: cid(),
        kind: "text",
        body: "waiting for you",
      }),
    ).toMatchObject({ ok: true, message: { held: true } });
    expect((await conversationView(env, conversationId, bob.id, 90))!.messages).toHaveLength(0);
    const cookie = await sessionCookie(alice.id);
    const fresh = `moved-held-${Date.now()}@example.com`;
    await send("/settings", { intent: "email", new_email: fresh, password: PASSWORD }, { cookie });
    const token = await mailedToken(fresh, "/mail-change/do");
    expect(await pageText(await send("/mail-change/do", { token }))).toContain("Your e-mail address has been changed.");
    expect(
      await env.DB.prepare(
        "SELECT u.email, u.status, p.status AS profile FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?1",
      )
        .bind(alice.id)
        .first(),
    ).toEqual({ email: fresh, status: "confirmed", profile: "active" });
    const bobView = await conversationView(env, conversationId, bob.id, 90);
    expect(bobView!.messages.map((m) => m.body)).toEqual(["waiting for you"]);
    expect(bobView!.access.myUnread).toBe(1);
  });

  it("refuses the change when the new address got an account in the meantime", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const fresh = `race-${Date.now()}@example.com`;
    await send("/settings", { intent: "email", new_email: fresh, password: PASSWORD }, { cookie });
    const token = await mailedToken(fresh, "/mail-change/do");
    await createMember({ email: fresh });
    const res = await send("/mail-change/do", { token });
    expect(res.status).toBe(409);
    expect(await pageText(res)).toContain("This email address already owns an account on this website.");
  });

  it("switches invisible mode on and off", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    await send("/settings", { intent: "invisible", invisible: "on" }, { cookie });
    expect((await env.DB.prepare("SELECT invisible FROM users WHERE id = ?1").bind(m.id).first())!.invisible).toBe(1);
    await send("/settings", { intent: "invisible" }, { cookie });
    expect((await env.DB.prepare("SELECT invisible FROM users WHERE id = ?1").bind(m.id).first())!.invisible).toBe(0);
  });

  it("saves the language and shows the site in it", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const res = await send("/settings", { intent: "language", language: "de" }, { cookie });
    expect(res.status).toBe(302);
    expect((await env.DB.prepare("SELECT language FROM users WHERE id = ?1").bind(m.id).first())!.language).toBe("de");
    const lng = res.headers
      .getSetCookie()
      .find((c) => c.startsWith("lng="))!
      .split(";")[0];
    expect(await pageText(await get("/settings", { cookie: `${cookie}; ${lng}` }))).toContain("Einstellungen");
  });

  it("offers the member's data as a JSON download without the password hash", async () => {
    const m = await memberWithPassword({ name: "Datawise" });
    await grantCredits(m.id, 7);
    const res = await get("/settings/data", { cookie: await sessionCookie(m.id) });
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="my-data-/);
    const data = (await res.json()) as Record<string, unknown>;
    expect(JSON.stringify(data)).not.toContain("password_hash");
    expect(data).toMatchObject({
      user: { id: m.id, email: m.email },
      profile: { name: "Datawise" },
      credit_ledger: [{ delta: 7 }],
    });
    for (const key of [
      "photos",
      "likes_given",
      "blocks",
      "conversations",
      "messages_sent",
      "payments",
      "notifications_disabled",
    ])
      expect(data).toHaveProperty(key);
    expect((await get("/settings/data")).status).toBe(302);
  });
});

describe("notification settings", () => {
  it("stores the switched-off types and shows why a type was switched off", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    await env.DB.prepare(
      "INSERT INTO notifications_disabled (user_id, type, reason) VALUES (?1, 'promotions', 'spam_complaint')",
    )
      .bind(m.id)
      .run();
    const page = await pageText(await get("/notifications", { cookie }));
    expect(page).toContain("was switched off because one of our e-mails was marked as spam");
    const keep = NOTIFICATION_TYPES.filter((t) => t !== "news" && t !== "promotions");
    const body = new URLSearchParams(keep.map((t) => ["enabled", t]));
    const res = await fetchForm("/notifications", body, cookie);
    expect(res.status).toBe(200);
    const rows = await env.DB.prepare(
      "SELECT type, reason FROM notifications_disabled WHERE user_id = ?1 ORDER BY type",
    )
      .bind(m.id)
      .all();
    expect(rows.results).toEqual([
      { type: "news", reason: "user" },
      { type: "promotions", reason: "spam_complaint" },
    ]);
    // Re-enabling lifts the complaint block.
    await fetchForm("/notifications", new URLSearchParams(NOTIFICATION_TYPES.map((t) => ["enabled", t])), cookie);
    const none = await env.DB.prepare("SELECT COUNT(*) AS n FROM notifications_disabled WHERE user_id = ?1")
      .bind(m.id)
      .first<{ n: number }>();
    expect(none!.n).toBe(0);
  });
});

async function fetchForm(path: string, body: URLSearchParams, cookie: string) {
  const { SELF } = await import("cloudflare:test");
  return SELF.fetch(`http://localhost${path}`, {
    method: "POST",
    headers: {
      Host: "localhost",
      Origin: "http://localhost",
      Cookie: cookie,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body,
    redirect: "manual",
  });
}
