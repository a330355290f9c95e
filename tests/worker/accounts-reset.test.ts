import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RESET_MAILS_PER_DAY } from "../../app/models/accounts/common.server";
import { get, sessionCookie } from "./fixtures";
import { PASSWORD, lastMailTo, mailedToken, memberWithPassword, pageText, send } from "./accounts-support";
import { clockStopped } from "./clock";

const NEW = "Another-pass-77";

describe("password reset", () => {
  const SENT = "If an account exists for this address, we have sent it a link to choose a new password.";

  it("answers the same for an unknown address as for a known one; only the owner gets a mail (decision 202)", async () => {
    const m = await memberWithPassword();
    const ghost = "ghost@example.com";
    const unknown = await pageText(await send("/reset-password", { email: ghost }));
    const known = await pageText(await send("/reset-password", { email: m.email }));
    for (const text of [unknown, known]) {
      expect(text).toContain(SENT);
      expect(text).not.toMatch(/not found/i);
    }
    expect(await mailedToken(m.email, "/reset-password/do")).toBeTruthy();
    expect(await lastMailTo(ghost)).toBeNull();
  });

  it(
    `mails at most ${RESET_MAILS_PER_DAY} links a day, answering the same after that`,
    clockStopped(async () => {
      const m = await memberWithPassword();
      for (let i = 0; i <= RESET_MAILS_PER_DAY; i++)
        expect(await pageText(await send("/reset-password", { email: m.email }))).toContain(SENT);
      const mails = await env.DB.prepare('SELECT COUNT(*) AS n FROM mail_outbox WHERE "to" = ?1')
        .bind(m.email)
        .first<number>("n");
      expect(mails).toBe(RESET_MAILS_PER_DAY);
    }),
  );

  it("sets a new password once per link, ends every other session and lifts a lockout", async () => {
    const m = await memberWithPassword();
    const other = await sessionCookie(m.id);
    await env.DB.prepare("UPDATE users SET failed_logins = 3, blocked_until = unixepoch() + 600 WHERE id = ?1")
      .bind(m.id)
      .run();
    await send("/reset-password", { email: m.email });
    const token = await mailedToken(m.email, "/reset-password/do");
    expect(await pageText(await get(`/reset-password/do?token=${token}`))).toContain('name="password_confirm"');

    const done = await send(`/reset-password/do?token=${token}`, { token, password: NEW, password_confirm: NEW });
    expect(done.status).toBe(302);
    expect((await get("/api/user.php", { cookie: other })).status).toBe(401);
    expect((await send("/login", { email: m.email, password: NEW })).status).toBe(302);
    expect(await pageText(await send("/login", { email: m.email, password: PASSWORD }))).toContain("Login failed");

    // Single use.
    const again = await send(`/reset-password/do?token=${token}`, {
      token,
      password: "Third-pass-99",
      password_confirm: "Third-pass-99",
    });
    expect(await pageText(again)).toContain("Link expired or invalid, request a new email");
    expect(await pageText(await get(`/reset-password/do?token=${token}`))).toContain(
      "Link expired or invalid, request a new email",
    );
  });

  it("refuses an expired link", async () => {
    const m = await memberWithPassword();
    await send("/reset-password", { email: m.email });
    const token = await mailedToken(m.email, "/reset-password/do");
    await env.DB.prepare("UPDATE tokens SET expires_at = unixepoch() - 1 WHERE user_id = ?1 AND kind = 'reset'")
      .bind(m.id)
      .run();
    const res = await send(`/reset-password/do?token=${token}`, { token, password: NEW, password_confirm: NEW });
    expect(await pageText(res)).toContain("Link expired or invalid, request a new email");
    expect(await pageText(await send("/login", { email: m.email, password: PASSWORD }))).not.toContain("Login failed");
  });

  it("says 'The entered passwords are not the same.' and keeps the link usable", async () => {
    const m = await memberWithPassword();
    await send("/reset-password", { email: m.email });
    const token = await mailedToken(m.email, "/reset-password/do");
    const res = await send(`/reset-password/do?token=${token}`, {
      token,
      password: NEW,
      password_confirm: "Different-1",
    });
    expect(await pageText(res)).toContain("The entered passwords are not the same.");
    expect(
      (await send(`/reset-password/do?token=${token}`, { token, password: NEW, password_confirm: NEW })).status,
    ).toBe(302);
  });

  it("refuses a made-up token", async () => {
    const res = await send("/reset-password/do?token=made-up", {
      token: "made-up",
      password: NEW,
      password_confirm: NEW,
    });
    expect(await pageText(res)).toContain("Link expired or invalid, request a new email");
  });
});
