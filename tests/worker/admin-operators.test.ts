/**
 * The operator console's base (decision 167): operator login (password, TOTP, lockout),
 * sessions apart from members', the role check on every /admin route, the audit log.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
// @ts-ignore -- the server build exists only after `npm run build` (test:worker builds first); the type check runs before it
import * as build from "../../build/index.js";
import { LOGIN_MAX_ATTEMPTS } from "../../app/models/accounts/login.server";
import {
  OPERATOR_AREAS,
  newTotpKey,
  operatorLogin,
  totpCode,
  totpStep,
  setOperatorDisabled,
  type OperatorArea,
} from "../../app/models/admin/operators.server";
import { OPERATOR_ROLES } from "../../db/schema";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { OPERATOR_PASSWORD, auditRows, createOperator, operatorCookie } from "./admin-support";

/** A login post from one client address (the lockout counts per client). */
async function postFrom(ip: string, form: Record<string, string>) {
  const { SELF } = await import("cloudflare:test");
  return SELF.fetch("http://localhost/admin/login", {
    method: "POST",
    headers: {
      Host: "localhost",
      Origin: "http://localhost",
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": ip,
    },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
}

describe("operator login", () => {
  it("logs an operator in with its own cookie, only sent to /admin, and audits it", async () => {
    const op = await createOperator("moderator");
    const res = await postFrom("10.1.0.1", {
      email: op.email,
      password: OPERATOR_PASSWORD,
      code: "",
      redirectTo: "/admin/audit",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/audit");
    const cookie = res.headers.get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/^op_sid=/);
    expect(cookie).toMatch(/Path=\/admin/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).not.toMatch(/(^|, )sid=/);
    expect((await auditRows(op.id)).map((r) => r.action)).toEqual(["operator.login"]);
  });

  it("sends the login elsewhere than the console to the console", async () => {
    const op = await createOperator("support");
    const res = await postFrom("10.1.0.2", { email: op.email, password: OPERATOR_PASSWORD, redirectTo: "/members" });
    expect(res.headers.get("Location")).toBe("/admin");
  });

  it("refuses a wrong password, a member's credentials and a disabled operator alike", async () => {
    const op = await createOperator("admin");
    const off = await createOperator("admin", { disabled: true });
    for (const form of [
      { email: op.email, password: "wrong-password" },
      { email: "nobody@ops.example.com", password: OPERATOR_PASSWORD },
      { email: off.email, password: OPERATOR_PASSWORD },
    ]) {
      const res = await postFrom("10.1.0.3", form);
      expect(res.status).toBe(200);
      expect(res.headers.get("Set-Cookie") ?? "").not.toMatch(/op_sid=[^;]/);
      expect(await res.text()).toContain("E-mail address, password or authentication code is incorrect.");
    }
  });

  it("locks one client out after LOGIN_MAX_ATTEMPTS wrong passwords, not another", async () => {
    const op = await createOperator("admin");
    for (let i = 0; i < LOGIN_MAX_ATTEMPTS - 1; i++)
      await postFrom("10.1.0.4", { email: op.email, password: "nope-nope" });
    const last = await postFrom("10.1.0.4", { email: op.email, password: "nope-nope" });
    expect(await last.text()).toContain("Too many incorrect attempts, account blocked for 15 min.");
    // Even the right password from the locked client waits.
    const locked = await postFrom("10.1.0.4", { email: op.email, password: OPERATOR_PASSWORD });
    expect(locked.status).toBe(200);
    // Another client is not locked out by someone else's guessing.
    const other = await postFrom("10.1.0.5", { email: op.email, password: OPERATOR_PASSWORD });
    expect(other.status).toBe(302);
  });

  it("needs the TOTP code of an operator with a key, and accepts each code once", async () => {
    const key = newTotpKey();
    const op = await createOperator("admin", { totpSecret: key });
    const without = await postFrom("10.1.0.6", { email: op.email, password: OPERATOR_PASSWORD, code: "" });
    expect(await without.text()).toContain("E-mail address, password or authentication code is incorrect.");
    const code = totpCode(key);
    const wrong = await postFrom("10.1.0.6", {
      email: op.email,
      password: OPERATOR_PASSWORD,
      code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(200);
    const ok = await postFrom("10.1.0.6", { email: op.email, password: OPERATOR_PASSWORD, code });
    expect(ok.status).toBe(302);
    const replay = await postFrom("10.1.0.6", { email: op.email, password: OPERATOR_PASSWORD, code });
    expect(replay.status).toBe(200);
  });

  it("in production refuses an operator without a second factor", async () => {
    const op = await createOperator("admin");
    const production = { ...env, ENVIRONMENT: "production" as const };
    expect(await operatorLogin(production, op.email, OPERATOR_PASSWORD, "", "10.1.0.7")).toEqual({
      ok: false,
      reason: "failed",
    });
    expect((await operatorLogin(env, op.email, OPERATOR_PASSWORD, "", "10.1.0.8")).ok).toBe(true);
  });

  it("TOTP follows RFC 6238 (its SHA-1 test vector, 6 digits) and allows one step of drift", () => {
    const rfcKey = btoa("12345678901234567890");
    expect(totpCode(rfcKey, 59)).toBe("287082");
    expect(totpCode(rfcKey, 1111111109)).toBe("081804");
    expect(totpStep(rfcKey, "287082", 0, 59 + 30)).toBe(1);
    expect(totpStep(rfcKey, "287082", 0, 59 + 90)).toBeNull();
    expect(totpStep(rfcKey, "287082", 1, 59)).toBeNull();
  });
});

describe("operator and member sessions stay apart", () => {
  it("a member's session never opens /admin; an operator's never a member page", async () => {
    const member = await createMember();
    const memberCookie = await sessionCookie(member.id);
    const res = await get("/admin", { cookie: memberCookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/admin\/login/);

    const op = await createOperator("admin");
    const opCookie = await operatorCookie(op.id);
    const page = await get("/chats", { cookie: opCookie });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toMatch(/^\/login/);
  });

  it("the console's pages carry no script at all", async () => {
    const op = await createOperator("admin");
    for (const path of ["/admin/login", "/admin", "/admin/audit", "/admin/operators"]) {
      const res = await get(path, { cookie: await operatorCookie(op.id) });
      const html = await res.text();
      expect(res.status, path).toBe(path === "/admin/login" ? 302 : 200);
      if (res.status === 200) {
        expect(html, path).not.toMatch(/<script/i);
        expect(html, path).not.toMatch(/modulepreload/);
      }
    }
    const loginPage = await get("/admin/login");
    expect(await loginPage.text()).not.toMatch(/<script/i);
  });
});

/** Every /admin route of the build, with the console part it declares (`export const area`). */
type BuiltRoute = { id: string; path?: string; index?: boolean; parentId?: string; module: Record<string, unknown> };
const routes = build.routes as unknown as Record<string, BuiltRoute>;
const adminRoutes = Object.values(
  routes as Record<
    string,
    { id: string; path?: string; index?: boolean; parentId?: string; module: Record<string, unknown> }
  >,
).filter((r) => r.id.startsWith("routes/admin") && r.id !== "routes/admin_.login");

function urlOf(route: (typeof adminRoutes)[number]): string {
  const parts: string[] = [];
  let r: (typeof adminRoutes)[number] | undefined = route;
  while (r && r.id !== "root") {
    if (r.path) parts.unshift(r.path.replace(/:[^/]+/g, "x-unknown"));
    r = routes[r.parentId ?? ""];
  }
  return `/${parts.join("/")}`;
}

describe("every /admin route checks the role in its loader and its action", () => {
  it("every console route names its part", async () => {
    // The console's modules load with its first request (app/lib/lazy-routes.server.ts, decision 242).
    await (await get("/admin/login")).arrayBuffer();
    expect(adminRoutes.length).toBeGreaterThanOrEqual(5);
    for (const r of adminRoutes) expect(Object.keys(OPERATOR_AREAS), r.id).toContain(r.module.area);
  });

  /**
   * A response read to its end: a page's streamed body left unread errors in the runtime after the test
   * ("the readable side of this TransformStream is no longer readable"), which fails the whole run.
   */
  const read = async (pending: Promise<Response>) => {
    const res = await pending;
    // The inbox's live stream (decision 210) runs for a minute: let go of it instead.
    if (res.headers.get("Content-Type")?.startsWith("text/event-stream")) await res.body?.cancel();
    else await res.arrayBuffer();
    return res;
  };

  for (const route of adminRoutes) {
    it(`${route.id}: a visitor, a member and a wrong role are refused`, async () => {
      const url = urlOf(route);
      const area = route.module.area as OperatorArea;
      const member = await createMember();
      const who = [undefined, await sessionCookie(member.id)];
      const wrongRoles = OPERATOR_ROLES.filter((role) => !(OPERATOR_AREAS[area] as readonly string[]).includes(role));
      for (const cookie of who) {
        if (route.module.loader) {
          const res = await read(get(url, { cookie }));
          expect(res.status, `${url} GET`).toBe(302);
          expect(res.headers.get("Location"), url).toMatch(/^\/admin\/login/);
        }
        if (route.module.action) {
          const res = await read(post(url, { id: "x", disabled: "1", reason: "test" }, { cookie }));
          expect(res.status, `${url} POST`).toBe(302);
          expect(res.headers.get("Location"), url).toMatch(/^\/admin\/login/);
        }
      }
      for (const role of wrongRoles) {
        const cookie = await operatorCookie((await createOperator(role)).id);
        if (route.module.loader) {
          const res = await read(get(url, { cookie }));
          // The chat team's console opens on its inbox: the dashboard sends it there (decision 201).
          if (route.id === "routes/admin._index" && role === "chat_team")
            expect(res.headers.get("Location")).toBe("/admin/inbox");
          else expect(res.status, `${url} GET as ${role}`).toBe(403);
        }
        if (route.module.action)
          expect(
            (await read(post(url, { id: "x", disabled: "1", reason: "test" }, { cookie }))).status,
            `${url} POST as ${role}`,
          ).toBe(403);
      }
      for (const role of OPERATOR_AREAS[area]) {
        const cookie = await operatorCookie((await createOperator(role)).id);
        // Admitted: the page, a redirect within the console, or "no such case" for a made-up id.
        if (route.module.loader)
          expect([200, 302, 404], `${url} GET as ${role}`).toContain((await read(get(url, { cookie }))).status);
      }
    });
  }
});

describe("audit log", () => {
  it("disabling an operator writes one audit row with before/after in the same batch, ends their sessions; a repeat changes nothing", async () => {
    const admin = await createOperator("admin");
    const target = await createOperator("moderator");
    const targetCookie = await operatorCookie(target.id);
    expect((await get("/admin", { cookie: targetCookie })).status).toBe(200);
    const res = await post(
      "/admin/operators",
      { id: target.id, disabled: "1", reason: "left the team" },
      { cookie: await operatorCookie(admin.id) },
    );
    expect(await res.text()).toContain("Saved.");
    expect((await get("/admin", { cookie: targetCookie })).status).toBe(302);
    const again = await post(
      "/admin/operators",
      { id: target.id, disabled: "1", reason: "left the team" },
      { cookie: await operatorCookie(admin.id) },
    );
    expect(await again.text()).toContain("Nothing changed");
    const rows = (await auditRows(target.id)).filter((r) => r.action === "operator.disable");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      operatorId: admin.id,
      role: "admin",
      reason: "left the team",
      before: { disabled: false },
      after: { disabled: true },
    });
  });

  it("an admin cannot disable themselves; an unknown id leaves no audit row", async () => {
    const admin = await createOperator("admin");
    expect(await setOperatorDisabled(env.DB, { ...admin, name: "x" }, admin.id, true, "oops")).toBe(false);
    expect(await setOperatorDisabled(env.DB, { ...admin, name: "x" }, "no-such-operator", true, "oops")).toBe(false);
    expect(await auditRows("no-such-operator")).toHaveLength(0);
  });

  it("is append-only: the database refuses to change or delete a row", async () => {
    const op = await createOperator("admin");
    await postFrom("10.1.0.9", { email: op.email, password: OPERATOR_PASSWORD });
    await expect(
      env.DB.prepare("UPDATE audit_log SET reason = 'x' WHERE target_id = ?1").bind(op.id).run(),
    ).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare("DELETE FROM audit_log WHERE target_id = ?1").bind(op.id).run()).rejects.toThrow(
      /append-only/,
    );
  });

  it("/admin/audit lists and filters the entries", async () => {
    const admin = await createOperator("admin");
    const op = await createOperator("support");
    await postFrom("10.1.0.10", { email: op.email, password: OPERATOR_PASSWORD });
    const cookie = await operatorCookie(admin.id);
    const all = await (await get(`/admin/audit?targetId=${op.id}`, { cookie })).text();
    expect(all).toContain("operator.login");
    const none = await (await get(`/admin/audit?targetId=${op.id}&action=decision.`, { cookie })).text();
    expect(none).toContain("No entries.");
  });
});
