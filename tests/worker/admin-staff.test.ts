/**
 * Staff accounts in the console (decision 216) and dangerous actions (decision 217): an admin adds,
 * re-roles and resets operators with audit rows; a first login asks for a new password and a TOTP
 * enrolment before anything else; a lock-out attempt the real operator survives; a campaign send
 * confirmed with its size; a grant above the threshold waiting for a second admin; the per-operator
 * rate limit; the audit filter and reasons; the login error that does not tell the code was wrong.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import worker from "../../app/entry.worker";
import type { Env } from "../../app/lib/env";
import { LOGIN_ACCOUNT_MAX_ATTEMPTS, LOGIN_MAX_ATTEMPTS } from "../../app/models/accounts/login.server";
import { saveCampaign } from "../../app/models/admin/campaigns.server";
import { APPROVAL_DEFAULTS } from "../../app/models/admin/guard.server";
import { changeOperatorRole, newTotpKey, operatorLogin, totpCode } from "../../app/models/admin/operators.server";
import { OPERATOR_PASSWORD, auditRows, createOperator, operatorCookie } from "./admin-support";
import { clockStopped } from "./clock";
import { createMember, get, post } from "./fixtures";
import { flushAll } from "./wallet-support";

/** A console post through the Worker with bindings of the test's choosing and a client address. */
async function through(
  path: string,
  form: Record<string, string>,
  o: { cookie?: string; ip?: string; bindings?: Env } = {},
) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://localhost${path}`, {
      method: "POST",
      body: new URLSearchParams(form),
      redirect: "manual",
      headers: {
        Host: "localhost",
        Origin: "http://localhost",
        "Content-Type": "application/x-www-form-urlencoded",
        "CF-Connecting-IP": o.ip ?? "10.40.0.1",
        ...(o.cookie ? { Cookie: o.cookie } : {}),
      },
    }),
    o.bindings ?? (env as unknown as Env),
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** The cookies a response sets, as a Cookie header ("a=1; b=2"). */
const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((c) => !c.endsWith("="))
    .join("; ");

const operatorRow = (id: string) =>
  env.DB.prepare("SELECT * FROM operators WHERE id = ?1").bind(id).first<Record<string, unknown>>();

const admin = async () => {
  const op = await createOperator("admin");
  return { ...op, cookie: await operatorCookie(op.id) };
};

describe("staff accounts in the console", () => {
  it(
    "an admin adds an operator, changes the role and resets password and second factor, each audited",
    clockStopped(async () => {
      const a = await admin();
      const email = `new-${Date.now()}@ops.example.com`;
      const made = await post(
        "/admin/operators",
        { intent: "create", email, name: "Nora New", role: "moderator" },
        { cookie: a.cookie },
      );
      const page = await made.text();
      expect(page).toContain("One-time password for");
      const password = /<code class="a-key">([^<]+)<\/code>/.exec(page)![1]!;
      const row = (await env.DB.prepare("SELECT * FROM operators WHERE email = ?1")
        .bind(email)
        .first<Record<string, unknown>>())!;
      expect(row).toMatchObject({ role: "moderator", must_change_password: 1, must_enrol_totp: 1, totp_secret: null });
      expect(String(row.password_hash)).not.toContain(password);
      const id = String(row.id);
      // The same address again adds nothing.
      const twice = await post(
        "/admin/operators",
        { intent: "create", email, name: "Nora", role: "admin" },
        { cookie: a.cookie },
      );
      expect(await twice.text()).toContain("already has an operator account");

      const role = await post(
        "/admin/operators",
        { intent: "role", id, role: "support", reason: "moved to support" },
        { cookie: a.cookie },
      );
      expect(await role.text()).toContain("Role changed.");
      expect((await operatorRow(id))!.role).toBe("support");

      const reset = await post(
        "/admin/operators",
        { intent: "reset_password", id, reason: "forgot it" },
        { cookie: a.cookie },
      );
      expect(await reset.text()).toContain("One-time password for");
      const totp = await post(
        "/admin/operators",
        { intent: "reset_totp", id, reason: "lost phone" },
        { cookie: a.cookie },
      );
      expect(await totp.text()).toContain("Second factor reset");

      const rows = await auditRows(id);
      expect(rows.map((r) => r.action)).toEqual([
        "operator.create",
        "operator.role",
        "operator.reset_password",
        "operator.reset_totp",
      ]);
      expect(rows.every((r) => r.operatorId === a.id)).toBe(true);
      expect(rows[0]).toMatchObject({ after: { email, role: "moderator" } });
      expect(rows[1]).toMatchObject({
        reason: "moved to support",
        before: { role: "moderator" },
        after: { role: "support" },
      });
      // No password in any audit row.
      expect(JSON.stringify(rows)).not.toContain(password);
    }),
  );

  it("an admin cannot change their own role nor disable themselves; two admins demoting each other leave one admin", async () => {
    const a = await admin();
    const b = await admin();
    const mine = await post(
      "/admin/operators",
      { intent: "role", id: a.id, role: "support", reason: "oops" },
      { cookie: a.cookie },
    );
    expect(await mine.text()).toContain("You cannot change your own role.");
    const off = await post("/admin/operators", { id: a.id, disabled: "1", reason: "oops" }, { cookie: a.cookie });
    expect(await off.text()).toContain("Nothing changed");
    // Only a and b are enabled admins for this test; they demote each other at the same time.
    const others = (
      await env.DB.prepare("SELECT id FROM operators WHERE role = 'admin' AND disabled = 0 AND id NOT IN (?1, ?2)")
        .bind(a.id, b.id)
        .all<{ id: string }>()
    ).results.map((r) => r.id);
    const setDisabled = (ids: string[], d: number) =>
      ids.length
        ? env.DB.batch(ids.map((id) => env.DB.prepare("UPDATE operators SET disabled = ?2 WHERE id = ?1").bind(id, d)))
        : null;
    await setDisabled(others, 1);
    try {
      const actor = (o: { id: string; email: string }) => ({
        id: o.id,
        email: o.email,
        name: "x",
        role: "admin" as const,
      });
      const results = await Promise.all([
        changeOperatorRole(env.DB, actor(a), b.id, "support", "rotation"),
        changeOperatorRole(env.DB, actor(b), a.id, "support", "rotation"),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const admins = await env.DB.prepare(
        "SELECT COUNT(*) AS n FROM operators WHERE role = 'admin' AND disabled = 0",
      ).first("n");
      expect(admins).toBe(1);
    } finally {
      await setDisabled(others, 0);
    }
  });

  it(
    "the first login asks for a new password and a TOTP enrolment before anything else",
    clockStopped(async () => {
      const a = await admin();
      const email = `first-${Date.now()}@ops.example.com`;
      const page = await (
        await post(
          "/admin/operators",
          { intent: "create", email, name: "Fiona First", role: "support" },
          { cookie: a.cookie },
        )
      ).text();
      const once = /<code class="a-key">([^<]+)<\/code>/.exec(page)![1]!;
      const login = await through("/admin/login", { email, password: once, code: "", redirectTo: "/admin/members" });
      expect(login.status).toBe(302);
      const cookie = cookiesOf(login);
      // Every console page sends to the setup; so does an action.
      for (const path of ["/admin", "/admin/members", "/admin/campaigns"]) {
        const res = await get(path, { cookie });
        expect(res.status, path).toBe(302);
        expect(res.headers.get("Location"), path).toBe("/admin/setup");
      }
      expect((await post("/admin/campaigns/new", { intent: "save" }, { cookie })).headers.get("Location")).toBe(
        "/admin/setup",
      );
      const setup = await (await get("/admin/setup", { cookie })).text();
      expect(setup).toContain("choose your own password and enrol a second factor");
      expect(setup).not.toMatch(/<script/i);
      const key = /name="key" value="([^"]+)"/
        .exec(setup)![1]!
        .replace(/&#x2F;|&#47;/g, "/")
        .replace(/&#x2B;|&#43;/g, "+")
        .replace(/&#x3D;|&#61;/g, "=");
      // The one-time password again, a wrong code, two different passwords: refused, nothing changes.
      for (const [form, text] of [
        [{ password: once, repeat: once, key, code: totpCode(key) }, "not the one-time password"],
        [
          { password: "Brand-new-pass-1", repeat: "Brand-new-pass-2", key, code: totpCode(key) },
          "The two passwords differ.",
        ],
        [
          {
            password: "Brand-new-pass-1",
            repeat: "Brand-new-pass-1",
            key,
            code: "000000" === totpCode(key) ? "111111" : "000000",
          },
          "does not match the key",
        ],
      ] as const) {
        expect(await (await post("/admin/setup", form, { cookie })).text()).toContain(text);
      }
      const done = await post(
        "/admin/setup",
        { password: "Brand-new-pass-1", repeat: "Brand-new-pass-1", key, code: totpCode(key) },
        { cookie },
      );
      expect(done.status).toBe(302);
      expect(done.headers.get("Location")).toBe("/admin");
      expect((await get("/admin/members", { cookie })).status).toBe(200);
      const row = (await env.DB.prepare("SELECT * FROM operators WHERE email = ?1")
        .bind(email)
        .first<Record<string, unknown>>())!;
      expect(row).toMatchObject({ must_change_password: 0, must_enrol_totp: 0, totp_secret: key });
      expect((await auditRows(String(row.id))).map((r) => r.action)).toContain("operator.setup");
      // From now on the new password with a code from the key, never the one-time password.
      vi.setSystemTime(Date.now() + 60_000);
      expect(
        (await through("/admin/login", { email, password: once, code: totpCode(key) }, { ip: "10.40.0.2" })).status,
      ).toBe(200);
      vi.setSystemTime(Date.now() + 60_000);
      expect(
        (
          await through(
            "/admin/login",
            { email, password: "Brand-new-pass-1", code: totpCode(key) },
            { ip: "10.40.0.3" },
          )
        ).status,
      ).toBe(302);
    }),
  );
});

describe("hard to lock out", () => {
  it(
    "an attacker failing from many addresses locks the account for others; the operator's known device and a right TOTP code still get in; audited and shown to admins",
    clockStopped(async () => {
      const key = newTotpKey();
      const op = await createOperator("moderator", { totpSecret: key });
      // An earlier login from the operator's own browser: its device cookie.
      const first = await through(
        "/admin/login",
        { email: op.email, password: OPERATOR_PASSWORD, code: totpCode(key) },
        { ip: "10.41.0.1" },
      );
      expect(first.status).toBe(302);
      const device = first.headers
        .getSetCookie()
        .find((c) => c.startsWith("op_dev="))!
        .split(";")[0]!;
      // The attack: wrong passwords from many addresses, fewer than a client's own limit each.
      const addresses = Math.ceil(LOGIN_ACCOUNT_MAX_ATTEMPTS / (LOGIN_MAX_ATTEMPTS - 1));
      for (let i = 0; i < addresses; i++)
        for (let j = 0; j < LOGIN_MAX_ATTEMPTS - 1; j++)
          await through(
            "/admin/login",
            { email: op.email, password: "guess-guess", code: "123456" },
            { ip: `10.41.1.${i}` },
          );
      expect(Number((await operatorRow(op.id))!.blocked_until)).toBeGreaterThan(Date.now() / 1000);
      vi.setSystemTime(Date.now() + 30_000);
      // Unknown device, right password, wrong code: blocked.
      const wrongCode = await through(
        "/admin/login",
        { email: op.email, password: OPERATOR_PASSWORD, code: "000000" },
        { ip: "10.41.2.1" },
      );
      expect(await wrongCode.text()).toContain("account blocked");
      // Known device: in (its code is still asked).
      const known = await through(
        "/admin/login",
        { email: op.email, password: OPERATOR_PASSWORD, code: totpCode(key) },
        { ip: "10.41.2.2", cookie: device },
      );
      expect(known.status).toBe(302);
      vi.setSystemTime(Date.now() + 30_000);
      // A new browser with the right password and the right code: in as well.
      const fresh = await through(
        "/admin/login",
        { email: op.email, password: OPERATOR_PASSWORD, code: totpCode(key) },
        { ip: "10.41.2.3" },
      );
      expect(fresh.status).toBe(302);
      // The attacker still is not: the lock runs on for unknown devices without the code.
      expect(
        await (
          await through("/admin/login", { email: op.email, password: "guess-again", code: "" }, { ip: "10.41.2.4" })
        ).text(),
      ).toContain("account blocked");
      const actions = (await auditRows(op.id)).map((r) => r.action);
      expect(actions.filter((a) => a === "operator.login_failed").length).toBeGreaterThanOrEqual(
        LOGIN_ACCOUNT_MAX_ATTEMPTS,
      );
      expect(actions).toContain("operator.lockout");
      expect(actions.filter((a) => a === "operator.login")).toHaveLength(3);
      // Admins see the lockout on every console page.
      const a = await admin();
      const page = await (await get("/admin/operators", { cookie: a.cookie })).text();
      expect(page).toContain("Staff login locked out in the last 24 hours");
      expect(page).toContain(op.email);
    }),
  );

  it("one answer for a wrong password and a wrong code: it never tells that only the code was wrong", async () => {
    const key = newTotpKey();
    const op = await createOperator("admin", { totpSecret: key });
    const code = totpCode(key);
    const texts = await Promise.all([
      through(
        "/admin/login",
        { email: op.email, password: OPERATOR_PASSWORD, code: code === "000000" ? "111111" : "000000" },
        { ip: "10.42.0.1" },
      ).then((r) => r.text()),
      through("/admin/login", { email: op.email, password: "not-the-password", code }, { ip: "10.42.0.2" }).then((r) =>
        r.text(),
      ),
    ]);
    for (const t of texts) expect(t).toContain("E-mail address, password or authentication code is incorrect.");
    expect(await operatorLogin(env, op.email, OPERATOR_PASSWORD, "", "10.42.0.3")).toEqual({
      ok: false,
      reason: "failed",
    });
  });
});

/** A fixed-window limiter like the binding, on a clock the test moves. */
function windowLimiter(limit: number, period: number) {
  let now = 0;
  const counts = new Map<string, number>();
  return {
    async limit({ key }: { key: string }) {
      const k = `${key}@${Math.floor(now / period)}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
      return { success: counts.get(k)! <= limit };
    },
    advance: (s: number) => void (now += s),
  };
}

describe("dangerous actions", () => {
  it("a campaign send first asks for confirmation with its size and the password; only then it sends", async () => {
    const op = await createOperator("support");
    const cookie = await operatorCookie(op.id);
    const m = await createMember();
    const brandId = Number(
      (await env.DB.prepare("SELECT brand_id FROM users WHERE id = ?1").bind(m.id).first("brand_id")) ?? 1,
    );
    const saved = await saveCampaign(env.DB, { id: op.id, role: op.role }, null, {
      brandId,
      type: "promotions",
      path: "/credits",
      plan: "all",
      title: { en: "Hello" },
      body: { en: "Body" },
    });
    if (!saved.ok) throw new Error("not saved");
    const status = async () =>
      env.DB.prepare("SELECT status FROM campaigns WHERE id = ?1").bind(saved.id).first("status");
    const ask = await post(`/admin/campaigns/${saved.id}`, { intent: "send" }, { cookie });
    expect(ask.status).toBe(200);
    const html = await ask.text();
    expect(html).toMatch(/Mail [\d,]+ members now \(campaign \d+\)\./);
    expect(html).toContain('name="confirmed" value="1"');
    expect(html).toContain('name="reauth_password"');
    expect(await status()).toBe("draft");
    const wrong = await post(
      `/admin/campaigns/${saved.id}`,
      { intent: "send", confirmed: "1", reauth_password: "nope" },
      { cookie },
    );
    expect(await wrong.text()).toContain("The password is wrong.");
    expect(await status()).toBe("draft");
    const yes = await post(
      `/admin/campaigns/${saved.id}`,
      { intent: "send", confirmed: "1", reauth_password: OPERATOR_PASSWORD },
      { cookie },
    );
    expect(yes.status).toBe(302);
    expect(await status()).not.toBe("draft");
  });

  it("a grant above the threshold waits for a second admin, who is not the requester; applied once when approved", async () => {
    const m = await createMember({ credits: 0 });
    const a = await admin();
    const b = await admin();
    const amount = APPROVAL_DEFAULTS.credits + 1;
    const asked = await post(
      `/admin/members/${m.id}`,
      {
        intent: "credits",
        direction: "grant",
        amount: String(amount),
        reason: "big goodwill",
        confirmed: "1",
        reauth_password: OPERATOR_PASSWORD,
      },
      { cookie: a.cookie },
    );
    expect(await asked.text()).toContain("Waiting for a second admin");
    expect(
      (await flushAll(m.id),
      await env.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(m.id).first("credits")),
    ).toBe(0);
    const approval = (await env.DB.prepare("SELECT id FROM console_approvals WHERE target_id = ?1")
      .bind(m.id)
      .first("id")) as string;
    expect(approval).toBeTruthy();
    // Listed for admins; the requester cannot approve it (the page offers no button, the post is refused).
    expect(await (await get("/admin/approvals", { cookie: a.cookie })).text()).toContain("Your own request");
    const own = await post("/admin/approvals", { id: approval, decision: "approve" }, { cookie: a.cookie });
    expect(await own.text()).toContain("Another admin must approve your own request.");
    // Support cannot open approvals at all.
    expect(
      (await get("/admin/approvals", { cookie: await operatorCookie((await createOperator("support")).id) })).status,
    ).toBe(403);
    // Approving asks for the approver's password again, as the grant itself did (decision 226).
    const approve = { id: approval, decision: "approve", confirmed: "1", reauth_password: OPERATOR_PASSWORD };
    const ok = await post("/admin/approvals", approve, { cookie: b.cookie });
    expect(await ok.text()).toContain("Approved and done.");
    const again = await post("/admin/approvals", approve, { cookie: b.cookie });
    expect(await again.text()).toContain("no longer waiting");
    await flushAll(m.id);
    expect(await env.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(m.id).first("credits")).toBe(amount);
    const actions = (await auditRows(m.id)).map((r) => [r.action, r.operatorId]);
    expect(actions).toEqual([
      ["approval.request", a.id],
      ["approval.approve", b.id],
      ["member.credits_grant", b.id],
    ]);
  });

  it(
    "approving a request asks for the approver's code (or password) again; without it nothing is approved or run",
    clockStopped(async () => {
      const m = await createMember({ credits: 0 });
      const a = await admin();
      const key = newTotpKey();
      const b = await createOperator("admin", { totpSecret: key });
      const bCookie = await operatorCookie(b.id);
      const amount = APPROVAL_DEFAULTS.credits + 5;
      await post(
        `/admin/members/${m.id}`,
        {
          intent: "credits",
          direction: "grant",
          amount: String(amount),
          reason: "big goodwill",
          confirmed: "1",
          reauth_password: OPERATOR_PASSWORD,
        },
        { cookie: a.cookie },
      );
      const id = (await env.DB.prepare("SELECT id FROM console_approvals WHERE target_id = ?1")
        .bind(m.id)
        .first("id")) as string;
      const state = async () => ({
        status: await env.DB.prepare("SELECT status FROM console_approvals WHERE id = ?1").bind(id).first("status"),
        credits:
          (await flushAll(m.id),
          await env.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(m.id).first("credits")),
        audit: (await auditRows(m.id)).map((r) => r.action),
      });
      const untouched = { status: "pending", credits: 0, audit: ["approval.request"] };
      // One click answers with the confirmation step naming the impact and asking for the code.
      const ask = await post("/admin/approvals", { id, decision: "approve" }, { cookie: bCookie });
      const html = await ask.text();
      expect(html).toContain(`Approve and run: Grant ${amount.toLocaleString("en")} credits`);
      expect(html).toContain('name="reauth_code"');
      expect(await state()).toEqual(untouched);
      // A forged confirmation without a code, with a wrong code, or with the password instead: refused.
      for (const extra of [
        {} as Record<string, string>,
        { reauth_code: totpCode(key) === "123456" ? "654321" : "123456" },
        { reauth_password: OPERATOR_PASSWORD },
      ]) {
        const res = await post(
          "/admin/approvals",
          { id, decision: "approve", confirmed: "1", ...extra },
          { cookie: bCookie },
        );
        expect(await res.text()).toContain("The authentication code is wrong or was already used.");
        expect(await state()).toEqual(untouched);
      }
      // The right code approves and runs it, once; the same code cannot approve anything again.
      const code = totpCode(key);
      const ok = await post(
        "/admin/approvals",
        { id, decision: "approve", confirmed: "1", reauth_code: code },
        { cookie: bCookie },
      );
      expect(await ok.text()).toContain("Approved and done.");
      expect(await state()).toEqual({
        status: "approved",
        credits: amount,
        audit: ["approval.request", "approval.approve", "member.credits_grant"],
      });
    }),
  );

  it("each operator may confirm only a few dangerous actions a minute (CONSOLE_LIMITER)", async () => {
    const limiter = windowLimiter(10, 60);
    const bindings = { ...(env as unknown as Env), CONSOLE_LIMITER: limiter } as Env;
    const op = await createOperator("support");
    const cookie = await operatorCookie(op.id);
    const m = await createMember({ credits: 0 });
    const grant = {
      intent: "credits",
      direction: "grant",
      amount: "1",
      reason: "goodwill",
      confirmed: "1",
      reauth_password: OPERATOR_PASSWORD,
    };
    for (let i = 0; i < 10; i++)
      expect((await through(`/admin/members/${m.id}`, grant, { cookie, bindings })).status).toBe(302);
    const eleventh = await through(`/admin/members/${m.id}`, grant, { cookie, bindings });
    expect(await eleventh.text()).toContain("Too many destructive actions in a minute");
    // Another operator is not slowed down.
    const other = await operatorCookie((await createOperator("support")).id);
    expect((await through(`/admin/members/${m.id}`, grant, { cookie: other, bindings })).status).toBe(302);
    limiter.advance(60);
    expect((await through(`/admin/members/${m.id}`, grant, { cookie, bindings })).status).toBe(302);
    await flushAll(m.id);
    expect(await env.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(m.id).first("credits")).toBe(12);
    expect((await auditRows(m.id)).filter((r) => r.action === "console.rate_limited")).toHaveLength(1);
  });
});

describe("the audit log", () => {
  it("filters on an action prefix of any length (no 500 at 50 characters and more)", async () => {
    const a = await admin();
    for (const n of [49, 50, 51, 100]) {
      const res = await get(`/admin/audit?action=${"x".repeat(n)}`, { cookie: a.cookie });
      expect(res.status, String(n)).toBe(200);
      expect(await res.text()).toContain("No entries.");
    }
    const login = await get(`/admin/audit?action=operator.log&targetId=${a.id}`, { cookie: a.cookie });
    expect(login.status).toBe(200);
  });

  it("stores reasons without invisible or direction-reversing characters, and refuses a reason of only those", async () => {
    const a = await admin();
    const target = await createOperator("moderator");
    const res = await post(
      "/admin/operators",
      { id: target.id, disabled: "1", reason: "left\u202e the\u200b team\u2066" },
      { cookie: a.cookie },
    );
    expect(await res.text()).toContain("Saved.");
    const [row] = (await auditRows(target.id)).filter((r) => r.action === "operator.disable");
    expect(row!.reason).toBe("left the team");
    const blank = await post(
      "/admin/operators",
      { id: target.id, disabled: "0", reason: "\u202e\u200b\u2066\u200b" },
      { cookie: a.cookie },
    );
    expect(await blank.text()).toContain("Give a reason");
    expect((await operatorRow(target.id))!.disabled).toBe(1);
  });
});
