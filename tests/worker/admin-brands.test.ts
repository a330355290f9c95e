/**
 * The console's brands (decision 181): admin only, one form with every setting,
 * validation that changes nothing, an audit row per save in its batch, and a setting changed here
 * changes what the site does (refund days, invite-only sign-up) — at once, also through the cache.
 */
import { env, SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { brandFields, companyFieldset, COMPANY_PREFIX, formValuesOf } from "../../app/models/admin/brand-fields";
import { brandForForm, saveBrand } from "../../app/models/admin/brands.server";
import { forgetBrands, getBrandByHost } from "../../app/models/brand.server";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { pageText, send, signupForm, signUp } from "./accounts-support";
import { choose, get, member, startPayment, userRow } from "./payments-support";
import { createMember, get as getPage, sessionCookie } from "./fixtures";

async function operator(role: "finance" | "admin" | "support" | "moderator") {
  const op = await createOperator(role);
  return { ...op, cookie: await operatorCookie(op.id) };
}

/** The edit form as the page renders it for brand `id` (the stored values), with `changes` typed in. */
async function formOf(id: number, changes: Record<string, string | null> = {}) {
  const found = (await brandForForm(env.DB, id))!;
  const values: Record<string, string> = {
    ...formValuesOf(brandFields(), found.brand),
    ...formValuesOf(companyFieldset().fields, found.company, { prefix: COMPANY_PREFIX }),
    companyId: String(found.brand.companyId),
  };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete values[k];
    else values[k] = v;
  }
  // An unticked checkbox is not posted at all.
  for (const [k, v] of Object.entries(values)) if (v === "") delete values[k];
  return values;
}

function postForm(path: string, cookie: string, values: Record<string, string>, headers: Record<string, string> = {}) {
  return SELF.fetch(`http://localhost${path}`, {
    method: "POST",
    headers: {
      Host: "localhost",
      Origin: "http://localhost",
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: cookie,
      ...headers,
    },
    body: new URLSearchParams(values),
    redirect: "manual",
  });
}

const brandRow = (id: number) =>
  env.DB.prepare("SELECT * FROM brands WHERE id = ?1").bind(id).first<Record<string, unknown>>();
const companyRow = (id: number) =>
  env.DB.prepare("SELECT * FROM companies WHERE id = ?1").bind(id).first<Record<string, unknown>>();

let original: Record<string, unknown>;
let originalCompany: Record<string, unknown>;
beforeAll(async () => {
  original = (await brandRow(1))!;
  originalCompany = (await companyRow(1))!;
});
afterEach(async () => {
  // Brand 1 back as seeded: the other tests of this file (and their brand) expect it.
  const cols = [
    "refund_days",
    "signups",
    "message_credits",
    "name",
    "min_age",
    "site_entry_countries",
    "age_check",
    "age_check_countries",
  ];
  await env.DB.prepare(`UPDATE brands SET ${cols.map((c, i) => `${c} = ?${i + 2}`).join(", ")} WHERE id = ?1`)
    .bind(1, ...cols.map((c) => original[c] as string | number))
    .run();
  await env.DB.prepare("UPDATE companies SET name = ?2 WHERE id = 1")
    .bind(1, originalCompany.name as string)
    .run();
  await env.DB.prepare("DELETE FROM brands WHERE hostname LIKE 'new-%.example.com'").run();
});

describe("who opens the brands", () => {
  it("admin does; moderator, support and finance get 403 and change nothing", async () => {
    const admin = await operator("admin");
    const list = await get("/admin/brands", { cookie: admin.cookie });
    expect(list.status).toBe(200);
    const html = await list.text();
    for (const text of ["Amora</a>", "de.localhost", "Herzklang</a>", "Herzklang GmbH", "SEK", "traffic source only"])
      expect(html).toContain(text);
    expect(html).not.toMatch(/<script/i);
    const form = await get("/admin/brands/1", { cookie: admin.cookie });
    expect(form.status).toBe(200);
    const page = await form.text();
    for (const text of ["Refund days", "Who may sign up", "Company details", 'name="company_vatNumbers"'])
      expect(page).toContain(text);
    expect(page).not.toMatch(/<script/i);
    expect((await get("/admin/brands/new", { cookie: admin.cookie })).status).toBe(200);
    expect((await get("/admin/brands/999", { cookie: admin.cookie })).status).toBe(404);

    for (const role of ["moderator", "support", "finance"] as const) {
      const { cookie } = await operator(role);
      for (const path of ["/admin/brands", "/admin/brands/1", "/admin/brands/new"])
        expect((await get(path, { cookie })).status, `${role} ${path}`).toBe(403);
      const res = await postForm("/admin/brands/1", cookie, await formOf(1, { refundDays: "99" }));
      expect(res.status, role).toBe(403);
      const add = await postForm("/admin/brands/new", cookie, await formOf(1, { hostname: "new-x.example.com" }));
      expect(add.status, role).toBe(403);
    }
    expect((await brandRow(1))!.refund_days).toBe(original.refund_days);
    expect(await env.DB.prepare("SELECT id FROM brands WHERE hostname = 'new-x.example.com'").first()).toBeNull();
  });
});

describe("saving a brand", () => {
  it("writes the change and one audit row with the changed fields before/after; a repeat changes nothing", async () => {
    const admin = await operator("admin");
    const res = await postForm(
      "/admin/brands/1",
      admin.cookie,
      await formOf(1, { refundDays: "21", messageCredits: "3", company_name: "Amora Media Holding B.V." }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/brands/1?saved=1");
    expect(await brandRow(1)).toMatchObject({ refund_days: 21, message_credits: 3 });
    expect((await companyRow(1))!.name).toBe("Amora Media Holding B.V.");
    const brandAudit = (await auditRows("1")).filter((r) => r.action === "brand.update" && r.operatorId === admin.id);
    expect(brandAudit).toHaveLength(1);
    expect(brandAudit[0]).toMatchObject({
      targetType: "brand",
      role: "admin",
      before: { refundDays: original.refund_days, messageCredits: original.message_credits },
      after: { refundDays: 21, messageCredits: 3 },
    });
    const companyAudit = (await auditRows("1")).filter(
      (r) => r.action === "company.update" && r.operatorId === admin.id,
    );
    expect(companyAudit).toHaveLength(1);
    expect(companyAudit[0]).toMatchObject({
      before: { name: originalCompany.name },
      after: { name: "Amora Media Holding B.V." },
    });
    // Both rows and the changes are one batch: they carry the same time.
    expect(companyAudit[0]!.at).toBe(brandAudit[0]!.at);

    const again = await postForm("/admin/brands/1", admin.cookie, await formOf(1));
    expect(again.headers.get("Location")).toBe("/admin/brands/1?saved=0");
    expect((await auditRows("1")).filter((r) => r.operatorId === admin.id)).toHaveLength(2);
  });

  it("refuses bad values with a message at each field, 400, and changes nothing", async () => {
    const admin = await operator("admin");
    const before = await brandRow(1);
    const res = await postForm(
      "/admin/brands/1",
      admin.cookie,
      await formOf(1, {
        name: "",
        hostname: "not a host!",
        domainLanguage: "xx_XX",
        niche: "42",
        currency: "XYZ",
        refundDays: "-1",
        messageCredits: "1.5",
        giftCredits: "99999999",
        siteEntryCountries: "DE, Narnia",
        minimumMessageCosts: "DE 2\nZZ 1",
        supportEmail: "nope",
        mailName: "Amora\r\nBcc: x@example.com",
        minAge: "12",
        directdebitMonthlyLimitCents: "lots",
        signups: "maybe",
        company_country: "Holland",
      }),
    );
    expect(res.status).toBe(400);
    const html = await pageText(res);
    for (const text of [
      "Nothing was saved",
      'id="err-name">Required',
      "A host name such as",
      "Choose one of the site's languages.",
      "Choose a niche.",
      "No package is priced in XYZ",
      "A whole number from 0 to 365.",
      "A whole number from 0 to 10000.",
      "Countries as ISO two-letter codes",
      "write a country and credits",
      "An e-mail address.",
      "No line breaks or control characters.",
      "A whole number from 18 to 99.",
      "Write an amount such as 12.50",
      "Choose one of the options.",
      "An ISO two-letter code such as NL.",
    ])
      expect(html, text).toContain(text);
    // What was typed stays in the form.
    expect(html).toContain('value="not a host!"');
    expect(await brandRow(1)).toEqual(before);
    expect((await auditRows("1")).filter((r) => r.operatorId === admin.id)).toHaveLength(0);
  });

  it("a host name another brand answers on is refused", async () => {
    const admin = await operator("admin");
    const res = await postForm("/admin/brands/1", admin.cookie, await formOf(1, { hostname: "de.localhost" }));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Another brand answers on this host name.");
    expect((await brandRow(1))!.hostname).toBe("localhost");
  });

  it("a malformed or huge post is a 4xx and changes nothing", async () => {
    const admin = await operator("admin");
    const before = await brandRow(1);
    const json = await SELF.fetch("http://localhost/admin/brands/1", {
      method: "POST",
      headers: {
        Host: "localhost",
        Origin: "http://localhost",
        "Content-Type": "application/json",
        Cookie: admin.cookie,
      },
      body: JSON.stringify({ refundDays: 99 }),
      redirect: "manual",
    });
    expect(json.status).toBe(400);
    const huge = await postForm("/admin/brands/1", admin.cookie, await formOf(1, { description: "x".repeat(70_000) }));
    expect(huge.status).toBe(413);
    const empty = await postForm("/admin/brands/1", admin.cookie, {});
    expect(empty.status).toBe(400);
    const fields = await postForm("/admin/brands/1", admin.cookie, await formOf(1, { refundDays: null }));
    expect(fields.status).toBe(400);
    const notABrand = await postForm("/admin/brands/abc", admin.cookie, await formOf(1));
    expect(notABrand.status).toBe(404);
    expect(await brandRow(1)).toEqual(before);
    expect((await auditRows("1")).filter((r) => r.operatorId === admin.id)).toHaveLength(0);
  });

  it("adds a brand as a copy of the default one with the form's values, audited; its host then answers", async () => {
    const admin = await operator("admin");
    const host = `new-${Date.now().toString(36)}.example.com`;
    const res = await postForm(
      "/admin/brands/new",
      admin.cookie,
      await formOf(1, {
        name: "Nieuw",
        hostname: host,
        domain: host,
        domainLanguage: "nl_NL",
        mailName: "Nieuw",
        supportEmail: "help@nieuw.example.com",
        // A new brand does not edit its company: these are ignored.
        company_name: "Changed by the new form",
      }),
    );
    expect(res.status).toBe(302);
    const id = Number(/added=(\d+)/.exec(res.headers.get("Location") ?? "")?.[1]);
    const row = await brandRow(id);
    expect(row).toMatchObject({
      name: "Nieuw",
      hostname: host,
      is_default: 0,
      domain_language: "nl_NL",
      company_id: 1,
    });
    expect(row!.visible_profile_fields).toBe(original.visible_profile_fields);
    expect((await companyRow(1))!.name).toBe(originalCompany.name);
    const audit = (await auditRows(String(id))).filter((r) => r.action === "brand.create");
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ name: "Nieuw", hostname: host });
    const settings = await (await get("/api/settings.php", { host })).json<{ name: string }>();
    expect(settings.name).toBe("Nieuw");
  });
});

describe("a setting changed in the console changes what the site does", () => {
  it("refund days: a purchase 20 days old is refused at 14 days and refunded once the console says 30", async () => {
    const admin = await operator("admin");
    await postForm("/admin/brands/1", admin.cookie, await formOf(1, { refundDays: "14" }));
    const m = await member();
    const p = await startPayment(m.cookie, "p0", "ideal");
    await choose(p.providerId, "paid");
    await env.DB.prepare("UPDATE payments SET paid_at = paid_at - ?2, created_at = created_at - ?2 WHERE id = ?1")
      .bind(p.paymentId, 20 * 86_400)
      .run();
    const late = await send(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    expect(await late.text()).toContain("refund period");
    expect((await userRow(m.id))!.credits).toBe(25);

    const saved = await postForm("/admin/brands/1", admin.cookie, await formOf(1, { refundDays: "30" }));
    expect(saved.status).toBe(302);
    await send(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    expect((await userRow(m.id))!.credits).toBe(0);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM refunds WHERE payment_id = ?1").bind(p.paymentId).first("n"),
    ).toBe(1);
  });

  it("sign-ups switched to invite-only: a plain sign-up is refused, and open again it works", async () => {
    const admin = await operator("admin");
    await postForm("/admin/brands/1", admin.cookie, await formOf(1, { signups: "other" }));
    const refused = signupForm();
    const res = await send("/signup", refused);
    expect(await pageText(res)).toContain("Sign-up is by invitation only");
    expect(await env.DB.prepare("SELECT id FROM users WHERE email = ?1").bind(refused.email).first()).toBeNull();

    await postForm("/admin/brands/1", admin.cookie, await formOf(1, { signups: "all" }));
    const welcome = signupForm();
    expect((await signUp(welcome)).status).toBe(302);
    expect(await env.DB.prepare("SELECT id FROM users WHERE email = ?1").bind(welcome.email).first()).not.toBeNull();
  });

  it("age assurance switched on for FR: an Amora member from FR is asked for proof, one from NL is not; off again, nobody", async () => {
    const admin = await operator("admin");
    const m = await createMember({ country: "FR" });
    const cookie = await sessionCookie(m.id);
    // A member whose profile is in FR is asked from any network (decision 197): the one from NL lives there.
    const nl = await sessionCookie((await createMember({ country: "NL" })).id);
    expect((await getPage("/members", { cookie, country: "FR" })).status).toBe(200);
    await postForm(
      "/admin/brands/1",
      admin.cookie,
      await formOf(1, { ageCheck: "before_members_area", ageCheckCountries: "FR, IT" }),
    );
    const asked = await getPage("/members", { cookie, country: "FR" });
    expect(asked.headers.get("Location")).toBe("/age-check?next=%2Fmembers");
    expect((await getPage("/members", { cookie: nl, country: "NL" })).status).toBe(200);

    await postForm("/admin/brands/1", admin.cookie, await formOf(1, { ageCheck: "off" }));
    expect((await getPage("/members", { cookie, country: "FR" })).status).toBe(200);
  });

  it("the isolate's brand cache: a console save is seen at once, a change made elsewhere within BRAND_CACHE_MS", async () => {
    // Outside tests the brands are cached per isolate (ENVIRONMENT=test always reads them).
    const cachedEnv = { ...env, ENVIRONMENT: "development" as const };
    forgetBrands();
    expect((await getBrandByHost(cachedEnv, "localhost")).minAge).toBe(original.min_age);
    // Another isolate's save: this isolate keeps its copy for now.
    await env.DB.prepare("UPDATE brands SET min_age = 21 WHERE id = 1").run();
    expect((await getBrandByHost(cachedEnv, "localhost")).minAge).toBe(original.min_age);
    // A save in this isolate drops the copy at once.
    const admin = await createOperator("admin");
    const result = await saveBrand(
      env.DB,
      admin,
      1,
      Object.entries(await formOf(1, { minAge: "25" })).reduce((f, [k, v]) => (f.append(k, v), f), new FormData()),
    );
    expect(result).toMatchObject({ ok: true, changed: true });
    expect((await getBrandByHost(cachedEnv, "localhost")).minAge).toBe(25);
    forgetBrands();
  });
});

describe("a German or Austrian brand's Impressum (decision 213)", () => {
  it("the company's Impressum details are edited here; without them a German brand is not saved, nor is Amora once its company sits in Austria", async () => {
    const admin = await operator("admin");
    const before = await companyRow(2);
    const form = await formOf(2);
    for (const [field, value] of Object.entries({
      company_registerCourt: "Amtsgericht Charlottenburg",
      company_managingDirectors: "Katrin Vogel, Jonas Brandt",
      company_youthOfficerName: "Dr. Miriam Albers",
      company_youthOfficerEmail: "jugendschutz@herzklang.example",
      company_disputeResolution: "unwilling",
    }))
      expect(form[field], field).toBe(value);
    const blank = await postForm(
      "/admin/brands/2",
      admin.cookie,
      await formOf(2, {
        company_registerCourt: null,
        company_managingDirectors: "",
        company_youthOfficerName: null,
        company_youthOfficerEmail: null,
        company_disputeResolution: null,
      }),
    );
    expect(blank.status).toBe(400);
    const html = await pageText(blank);
    for (const field of [
      "registerCourt",
      "managingDirectors",
      "youthOfficerName",
      "youthOfficerEmail",
      "disputeResolution",
    ])
      expect(html, field).toContain(`id="err-company_${field}">Required for a German or Austrian brand's Impressum`);
    // "Willing" names its board.
    const noBoard = await postForm(
      "/admin/brands/2",
      admin.cookie,
      await formOf(2, { company_disputeResolution: "willing" }),
    );
    expect(noBoard.status).toBe(400);
    expect(await pageText(noBoard)).toContain('id="err-company_disputeBoard">Required');
    expect(await companyRow(2)).toEqual(before);

    // An English-language brand whose company moves to Austria needs them too; its company has none.
    const austria = await postForm("/admin/brands/1", admin.cookie, await formOf(1, { company_country: "AT" }));
    expect(austria.status).toBe(400);
    expect(await pageText(austria)).toContain('id="err-company_registerCourt">Required');
    expect((await companyRow(1))!.country).toBe("NL");

    // Filled in, it saves and the Impressum shows it.
    const saved = await postForm(
      "/admin/brands/2",
      admin.cookie,
      await formOf(2, {
        company_disputeResolution: "willing",
        company_disputeBoard: "Universalschlichtungsstelle des Bundes, Straßburger Str. 8, 77694 Kehl",
      }),
    );
    expect(saved.status).toBe(302);
    const page = await pageText(await getPage("/pages/impressum", { host: "de.localhost" }));
    expect(page).toContain("Universalschlichtungsstelle des Bundes, Straßburger Str. 8, 77694 Kehl");
    await env.DB.prepare(
      "UPDATE companies SET dispute_resolution = 'unwilling', dispute_board = '' WHERE id = 2",
    ).run();
  });
});
