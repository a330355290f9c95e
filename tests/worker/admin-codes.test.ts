/**
 * The console's discount codes (decision 178): role checks, validation with clear
 * errors, a code made here applies at checkout (and its total holds), switched off it does not; audited.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { choose, clickKey, get, member, paymentRow, post, startPayment } from "./payments-support";

async function operator(role: "finance" | "admin" | "support" | "moderator") {
  const op = await createOperator(role);
  return { ...op, cookie: await operatorCookie(op.id) };
}

let seq = 0;
const newCode = () => `CONSOLE${Date.now().toString(36).toUpperCase()}${++seq}`;

/** The create form as a browser posts it (methods are repeated checkboxes). */
function createForm(cookie: string, fields: Record<string, string>, methods: string[] = []) {
  const body = new URLSearchParams({
    intent: "create",
    currency: "EUR",
    limit: "once",
    minimum: "",
    expires: "",
    countries: "",
    maxUses: "",
    ...fields,
  });
  for (const m of methods) body.append("methods", m);
  return SELF.fetch("http://localhost/admin/codes", {
    method: "POST",
    headers: {
      Host: "localhost",
      Origin: "http://localhost",
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: cookie,
    },
    body,
    redirect: "manual",
  });
}

const codeRow = (code: string) =>
  env.DB.prepare("SELECT * FROM discount_codes WHERE code = ?1").bind(code).first<Record<string, unknown>>();

describe("who opens the codes", () => {
  it("finance and admin do; support and moderator get 403 and create nothing", async () => {
    for (const role of ["finance", "admin"] as const) {
      expect((await get("/admin/codes", await operator(role))).status, role).toBe(200);
    }
    for (const role of ["support", "moderator"] as const) {
      const { cookie } = await operator(role);
      expect((await get("/admin/codes", { cookie })).status, role).toBe(403);
      const code = newCode();
      expect((await createForm(cookie, { code, percentage: "10" })).status, role).toBe(403);
      expect(await codeRow(code)).toBeNull();
    }
  });
});

describe("making a code", () => {
  it("refuses bad input with a message at each field and stores nothing", async () => {
    const { cookie } = await operator("finance");
    const res = await createForm(
      cookie,
      { code: "!", percentage: "150", minimum: "12.345", expires: "2020-01-01", countries: "Germany", limit: "total" },
      ["ideal", "bitcoin"],
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const text of [
      "The code was not created",
      "2 to 40 letters, digits or dashes",
      "A percentage above 0 and below 100",
      "Write an amount such as 12.50",
      "The last valid day must be today or later.",
      "Countries as two-letter codes",
      "Unknown payment method.",
      "A total needs the number of uses",
    ])
      expect(html, text).toContain(text);
    expect(html).toContain('aria-invalid="true"');
    // What was typed stays in the form.
    expect(html).toContain('value="150"');
    const taken = await createForm(cookie, { code: "WELCOME25", percentage: "10" });
    expect(await taken.text()).toContain("A code with this name exists already.");
    expect((await auditRows("WELCOME25")).filter((r) => r.action === "code.create")).toEqual([]);
  });

  it("a code made here applies at checkout with its rules; its use and revenue show; audited", async () => {
    const op = await operator("finance");
    const code = newCode();
    const res = await createForm(
      op.cookie,
      { code: code.toLowerCase(), percentage: "20", minimum: "10", countries: "nl, be", expires: "2099-12-31" },
      ["ideal", "bancontact"],
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/admin/codes?created=${code}`);
    expect(await codeRow(code)).toMatchObject({
      value_percentage: "20",
      minimum_order_value: 1000,
      currency: "EUR",
      country: "NL,BE",
      once_per_user: 1,
      max_uses: null,
      status: "active",
      paymentmethods: JSON.stringify(["ideal", "bancontact"]),
    });
    const audit = await auditRows(code);
    expect(audit.map((a) => [a.action, a.operatorId])).toEqual([["code.create", op.id]]);

    // A Dutch member buys p1 (19.95) with it by iDEAL: 20 % off, 15.96.
    const m = await member();
    const page = await (await get(`/credits/p1/ideal?code=${code}`, { cookie: m.cookie })).text();
    expect(page).toContain(`Code ${code} applied: 20% off.`);
    const { providerId, paymentId } = await startPayment(m.cookie, "p1", "ideal", { code });
    expect(await paymentRow(paymentId)).toMatchObject({ amount_cents: 1596, original_amount_cents: 1995 });
    await choose(providerId, "paid");
    // Its use and the revenue it brought.
    const list = await (await get(`/admin/codes?code=${code}`, op)).text();
    expect(list).toContain(paymentId);
    expect(list).toContain("€15.96");
    expect(list).toContain("€3.99 off");
    // Once per member: the same member again is refused.
    const again = await (await get(`/credits/p1/ideal?code=${code}`, { cookie: m.cookie })).text();
    expect(again).toContain("Code already used");
  });

  it("a total number of uses holds across members, and racing checkouts cannot pass it", async () => {
    const op = await operator("admin");
    const code = newCode();
    expect((await createForm(op.cookie, { code, percentage: "50", limit: "total", maxUses: "2" })).status).toBe(302);
    expect(await codeRow(code)).toMatchObject({ once_per_user: 0, max_uses: 2 });
    const members = await Promise.all([1, 2, 3, 4, 5].map(() => member()));
    await Promise.all(members.map((m) => startPayment(m.cookie, "p1", "ideal", { code }).catch(() => null)));
    const rows = await env.DB.prepare(
      "SELECT amount_cents, discount_code_id FROM payments WHERE user_id IN (?1, ?2, ?3, ?4, ?5)",
    )
      .bind(...members.map((m) => m.id))
      .all<{ amount_cents: number; discount_code_id: number | null }>();
    expect(rows.results.filter((r) => r.discount_code_id !== null)).toHaveLength(2);
    expect(rows.results.filter((r) => r.discount_code_id !== null).every((r) => r.amount_cents === 997)).toBe(true);
    // All used: the next member is told so.
    const late = await member();
    expect(await (await get(`/credits/p1/ideal?code=${code}`, { cookie: late.cookie })).text()).toContain(
      "Code already used",
    );
  });

  it("a code outside its countries does not apply", async () => {
    const op = await operator("finance");
    const code = newCode();
    await createForm(op.cookie, { code, percentage: "10", countries: "DE AT" });
    const m = await member();
    const html = await (await get(`/credits/p1/ideal?code=${code}`, { cookie: m.cookie })).text();
    expect(html).not.toContain(`Code ${code} applied`);
  });
});

describe("switching a code off", () => {
  it("a switched-off code does not apply at checkout; switching needs a reason, is audited once and can be undone", async () => {
    const op = await operator("finance");
    const code = newCode();
    await createForm(op.cookie, { code, percentage: "15" });
    const noReason = await post("/admin/codes", { intent: "disable", code, reason: "" }, op);
    expect(await noReason.text()).toContain("Give a reason");
    const off = await post("/admin/codes", { intent: "disable", code, reason: "Leaked on a coupon site" }, op);
    expect(off.status).toBe(302);
    expect(await codeRow(code)).toMatchObject({ status: "disabled" });
    const twice = await post("/admin/codes", { intent: "disable", code, reason: "Leaked on a coupon site" }, op);
    expect(await twice.text()).toContain("Nothing changed");
    expect((await auditRows(code)).map((a) => [a.action, a.reason])).toEqual([
      ["code.create", ""],
      ["code.disable", "Leaked on a coupon site"],
    ]);

    const m = await member();
    expect(await (await get(`/credits/p1/ideal?code=${code}`, { cookie: m.cookie })).text()).toContain(
      "Code not found",
    );
    const pay = await post(
      "/credits/p1/ideal",
      { intent: "pay", intent_key: clickKey(), method: "ideal", code },
      { cookie: m.cookie },
    );
    expect(pay.status).toBe(200);
    expect(await pay.text()).toContain("Code not found");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1").bind(m.id).first("n")).toBe(0);

    expect(
      (await post("/admin/codes", { intent: "enable", code, reason: "Back for the spring sale" }, op)).status,
    ).toBe(302);
    expect(await (await get(`/credits/p1/ideal?code=${code}`, { cookie: m.cookie })).text()).toContain(
      `Code ${code} applied: 15% off.`,
    );
  });
});
