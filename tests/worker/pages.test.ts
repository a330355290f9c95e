import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createMember, get, photoRow, sessionCookie } from "./fixtures";
import dePages from "../../locales/de/pages.json";
import enPages from "../../locales/en/pages.json";
import nlPages from "../../locales/nl/pages.json";
import deShop from "../../locales/de/shop.json";
import enShop from "../../locales/en/shop.json";

const STATIC = ["cookies", "privacy", "terms", "faq", "return-policy", "service", "ban"] as const;

async function page(path: string, init: Parameters<typeof get>[1] = {}) {
  const res = await get(path, init);
  return { status: res.status, location: res.headers.get("Location"), html: await res.text() };
}

function h1(html: string) {
  return /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
}

describe("static pages", () => {
  it.each(STATIC)("/pages/%s answers 200 with its title in the brand's language", async (slug) => {
    const de = await page(`/pages/${slug}`, { host: "de.localhost" });
    expect(de.status).toBe(200);
    expect(h1(de.html)).toBe(dePages.static[slug].title);
    expect(de.html).toContain(`<title>${dePages.static[slug].title} – Herzklang</title>`);
    const en = await page(`/pages/${slug}`);
    expect(h1(en.html)).toBe(enPages.static[slug].title);
  });

  it("/complaints shows how to complain with the support e-mail and the postal address", async () => {
    const { status, html } = await page("/complaints", { host: "nl.localhost" });
    expect(status).toBe(200);
    expect(h1(html)).toBe(nlPages.static.complaints.title);
    expect(html).toContain('href="mailto:klantenservice@flirtlokaal.example"');
    expect(html).toContain("Keizersgracht 123");
    expect(html).toContain("1015 CJ Amsterdam");
  });

  it("unknown /pages slugs are a 404", async () => {
    expect((await page("/pages/nope")).status).toBe(404);
  });

  it("legal pages carry the brand's company details", async () => {
    const { html } = await page("/pages/privacy", { host: "de.localhost" });
    for (const value of [
      "Herzklang GmbH",
      "Friedrichstraße 44",
      "10117 Berlin",
      "HRB 245781 B",
      "DE318764512",
      "hilfe@herzklang.example",
    ]) {
      expect(html).toContain(value);
    }
    expect(html).toContain("Deutschland");
  });
});

describe("terms version date", () => {
  it("is 2023-12-01 when the company was added earlier, in the page language", async () => {
    const { html } = await page("/pages/terms");
    expect(html).toContain("Version of December 1, 2023");
  });

  it("is the company's added date when that is later", async () => {
    const { html } = await page("/pages/terms", { host: "de.localhost" });
    expect(html).toContain("Fassung vom 15. Februar 2024");
  });

  it("follows a change of the company's added date", async () => {
    const before = await env.DB.prepare("SELECT added FROM companies WHERE id = 1").first<{ added: string }>();
    await env.DB.prepare("UPDATE companies SET added = ?1 WHERE id = 1").bind("2025-03-10T08:00:00Z").run();
    try {
      expect((await page("/pages/terms")).html).toContain("Version of March 10, 2025");
      expect((await page("/pages/terms", { host: "nl.localhost" })).html).toContain("Versie van 10 maart 2025");
    } finally {
      await env.DB.prepare("UPDATE companies SET added = ?1 WHERE id = 1").bind(before!.added).run();
    }
  });
});

describe("return policy", () => {
  it("states each brand's refund days", async () => {
    expect((await page("/pages/return-policy", { host: "nl.localhost" })).html).toContain("binnen 30 dagen");
    expect((await page("/pages/return-policy")).html).toContain("within 14 days");
  });
});

describe("customer service", () => {
  it("links the clean support phone number and shows it formatted", async () => {
    const en = await page("/pages/service");
    expect(en.html).toContain('href="tel:+31201234567"');
    expect(en.html).toContain(">+31 20-123 45 67</a>");
    const de = await page("/pages/service", { host: "de.localhost" });
    expect(de.html).toContain('href="tel:+493055501234"');
  });
});

describe("no US record-keeping statement (decision 239)", () => {
  it("/2257 and /pages/compliance are not pages", async () => {
    for (const path of ["/2257", "/pages/compliance"]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(404);
      expect(html, path).not.toContain("U.S.C.");
    }
  });

  it("answers 404 for any other top-level token", async () => {
    expect((await page("/no-such-token")).status).toBe(404);
    // Inherited object keys are not tokens either.
    expect((await page("/constructor")).status).toBe(404);
  });
});

describe("pricing", () => {
  it("lists the four packages from D1, what costs credits and the message cost per country", async () => {
    const { status, html } = await page("/pricing");
    expect(status).toBe(200);
    for (const price of ["€9.95", "€19.95", "€39.95", "€79.95"]) expect(html).toContain(price);
    // To the cent (decision 215).
    expect(html).toContain("€0.40 per credit");
    expect(html).toContain("Sending a message: 1 credit");
    expect(html).toContain("Sending a gift: 10 credits");
    expect(html).toContain("Viewing a private photo: 5 credits");
    // The credits a message costs per country: what the chat charges a sender from there.
    expect(html).toMatch(/<td>Switzerland<\/td><td>2 credits<\/td>/);
    expect(html).toMatch(/<td>Netherlands<\/td><td>1 credit<\/td>/);
  });

  it("uses the brand's own message credits", async () => {
    const { html } = await page("/pricing", { host: "de.localhost" });
    expect(h1(html)).toBe(deShop.pricing.title);
    expect(html).toContain("Nachricht senden: 2 Credits");
  });
});

const MEMBER_ONLY = [
  "/credits",
  "/credits/repeat-order",
  "/credits/p1",
  "/credits/p1/ideal",
  "/directdebit",
  "/transactions",
  "/premium",
];

describe("member-only screens", () => {
  it.each(MEMBER_ONLY)("%s sends a visitor to /login and back", async (path) => {
    const { status, location } = await page(path);
    expect(status).toBe(302);
    expect(location).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
  });

  it.each(MEMBER_ONLY)("%s answers 200 to a logged-in member", async (path) => {
    const { id } = await createMember({ paidUser: true, credits: 12 });
    const { status, html } = await page(path, { cookie: await sessionCookie(id) });
    expect(status).toBe(200);
    expect(html).not.toContain("Not found");
  });

  it("/credits shows the packages and the payment methods of the payment country", async () => {
    const { id } = await createMember();
    const { html } = await page("/credits", { cookie: `${await sessionCookie(id)}; dev_country=NL` });
    expect(html).toContain('href="/credits/p0"');
    expect(html).toContain('href="/credits/p3"');
    expect(html).toContain("iDEAL");
    expect(html).toContain("SEPA direct debit");
    expect(html).not.toContain(enShop.unavailable);
  });

  it("unknown packages and payment methods are a 404", async () => {
    const { id } = await createMember();
    const cookie = await sessionCookie(id);
    expect((await page("/credits/p9", { cookie })).status).toBe(404);
    expect((await page("/credits/p1/bitcoin", { cookie })).status).toBe(404);
  });

  it("a deleted account's session no longer opens member screens", async () => {
    const { id } = await createMember({ paidUser: true });
    const cookie = await sessionCookie(id);
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE id = ?1").bind(id).run();
    expect((await page("/credits", { cookie })).status).toBe(302);
  });
});

describe("repeat order", () => {
  it("tells a free member it is premium-only and links to /premium", async () => {
    const { id } = await createMember({ paidUser: false });
    const { status, html } = await page("/credits/repeat-order", { cookie: await sessionCookie(id) });
    expect(status).toBe(200);
    expect(html).toContain(enShop.repeat.premiumOnly);
    expect(html).toContain('href="/premium"');
  });

  it("shows a premium member their last paid order", async () => {
    const { id } = await createMember({ paidUser: true, credits: 40 });
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, created_at)
       VALUES (?1, ?2, 1, 'p1', 60, 1995, 'EUR', 'ideal', 'sandbox', 'paid', 1767225600)`,
    )
      .bind(`pay-${id}`, id)
      .run();
    const { status, html } = await page("/credits/repeat-order", { cookie: await sessionCookie(id) });
    expect(status).toBe(200);
    expect(html).not.toContain(enShop.repeat.premiumOnly);
    expect(html).toContain("60 credits for €19.95");
  });

  it("tells a premium member without orders there is nothing to repeat", async () => {
    const { id } = await createMember({ paidUser: true });
    const { html } = await page("/credits/repeat-order", { cookie: await sessionCookie(id) });
    expect(html).toContain(enShop.repeat.none);
  });
});

describe("transactions", () => {
  it("shows a member their own payment and hides others' (404)", async () => {
    const owner = await createMember({ paidUser: true });
    const other = await createMember();
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status)
       VALUES (?1, ?2, 1, 'p0', 25, 995, 'EUR', 'paypal', 'sandbox', 'paid')`,
    )
      .bind(`pay-${owner.id}`, owner.id)
      .run();
    const own = await page(`/transactions/pay-${owner.id}`, { cookie: await sessionCookie(owner.id) });
    expect(own.status).toBe(200);
    expect(own.html).toContain("€9.95");
    expect(own.html).toContain("PayPal");
    const list = await page("/transactions", { cookie: await sessionCookie(owner.id) });
    expect(list.html).toContain(`href="/transactions/pay-${owner.id}"`);
    expect((await page(`/transactions/pay-${owner.id}`, { cookie: await sessionCookie(other.id) })).status).toBe(404);
  });
});

describe("premium", () => {
  it("explains premium and links to /credits", async () => {
    const { id } = await createMember();
    const { html } = await page("/premium", { cookie: await sessionCookie(id) });
    expect(html).toContain(enShop.premium.benefits.unblurred.title);
    expect(html).toContain("Upload 25 photos");
    expect(html).toContain('href="/credits"');
    expect(html).not.toContain(enShop.premium.already);
  });

  it("thanks a member who already is premium", async () => {
    const { id } = await createMember({ paidUser: true });
    const { html } = await page("/premium", { cookie: await sessionCookie(id) });
    expect(html).toContain(enShop.premium.already);
  });
});

describe("landers", () => {
  it.each(["/landers/tinderswipe", "/landers/alonetonight", "/landers/video/summer", "/landers/maplanding"])(
    "%s pitches the brand's niche with a sign-up form",
    async (path) => {
      const { status, html } = await page(path, { host: "de.localhost" });
      expect(status).toBe(200);
      expect(html).toContain(dePages.niche.milf);
      expect(html).toMatch(/<form[^>]*method="post"[^>]*action="\/signup"/);
      for (const name of ["email", "name", "date_of_birth", "password"]) expect(html).toContain(`name="${name}"`);
      expect(html).toContain("layout-lander");
    },
  );

  it("unknown lander kinds are a 404", async () => {
    expect((await page("/landers/nope")).status).toBe(404);
    expect((await page("/landers/nope/milf")).status).toBe(404);
  });
});

describe("member landings", () => {
  async function memberWithPhoto() {
    const { id } = await createMember({ name: "Sanne", dateOfBirth: "1990-01-01" });
    await photoRow(id, `ph-${id}`).run();
    await env.DB.prepare("UPDATE profiles SET city = 'Utrecht', main_photo_id = ?1 WHERE user_id = ?2")
      .bind(`ph-${id}`, id)
      .run();
    return id;
  }

  it.each(["landing", "landing2", "landing3", "landing2/abc", "landing3/xyz"])(
    "/members/{id}/%s shows the member's public card in the lander layout",
    async (variant) => {
      const id = await memberWithPhoto();
      const { status, html } = await page(`/members/${id}/${variant}`);
      expect(status).toBe(200);
      expect(html).toContain("Sanne");
      expect(html).toContain("Utrecht");
      expect(html).toMatch(/\d+ years/);
      expect(html).toContain(`src="/photos/ph-${id}/thumb"`);
      expect(html).toContain("layout-lander");
      expect(html).toMatch(/action="\/signup"/);
    },
  );

  it("/members/{id}/signup uses the empty layout", async () => {
    const id = await memberWithPhoto();
    const { status, html } = await page(`/members/${id}/signup`);
    expect(status).toBe(200);
    expect(html).toContain("layout-empty");
    expect(html).toContain("Sanne");
  });

  it("answers 404 for an unknown or deleted member", async () => {
    expect((await page("/members/nobody-here/landing")).status).toBe(404);
    const id = await memberWithPhoto();
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE id = ?1").bind(id).run();
    for (const v of ["landing", "landing2", "landing3", "signup"]) {
      expect((await page(`/members/${id}/${v}`)).status).toBe(404);
    }
  });

  it("does not advertise a disabled profile", async () => {
    const id = await memberWithPhoto();
    await env.DB.prepare("UPDATE profiles SET status = 'disabled' WHERE user_id = ?1").bind(id).run();
    expect((await page(`/members/${id}/landing`)).status).toBe(404);
  });

  it("labels a team-run profile as everywhere: the brand's mark and warning, no claim that it chose anyone (decision 179)", async () => {
    const id = await memberWithPhoto();
    await env.DB.prepare("UPDATE profiles SET fictional = 1 WHERE user_id = ?1").bind(id).run();
    for (const v of ["landing", "landing2/abc", "landing3", "signup"]) {
      const { status, html } = await page(`/members/${id}/${v}`);
      expect(status, v).toBe(200);
      expect(html, v).toContain('data-testid="fictional-mark"');
      expect(html, v).toContain("Team-run profile"); // the one plain term (decision 202)
      expect(html, v).toContain("Sanne is a profile run by the");
      expect(html, v).not.toContain("wants to chat with you");
      expect(html, v).not.toContain("liked your profile");
    }
    const de = await page(`/members/${id}/landing`, { host: "de.localhost" });
    expect(de.html).toContain("Chatte mit Sanne, einem Team-Profil");
    // A real member's landing carries no mark.
    const real = await page(`/members/${await memberWithPhoto()}/landing`);
    expect(real.html).not.toContain("fictional-mark");
  });

  it("claims nothing a real member did not do: no like, no waiting message, to a visitor without a profile (decision 179)", async () => {
    const id = await memberWithPhoto();
    for (const v of ["landing", "landing2", "landing3"]) {
      const { status, html } = await page(`/members/${id}/${v}`);
      expect(status, v).toBe(200);
      expect(html, v).not.toMatch(
        /wants to chat with you|liked your profile|waiting for your answer|read the messages/,
      );
    }
    expect((await page(`/members/${id}/landing2`)).html).toContain("Chat with Sanne"); // decision 212: no "Meet"
  });

  it("speaks the brand's language", async () => {
    const id = await memberWithPhoto();
    const { html } = await page(`/members/${id}/landing`, { host: "de.localhost" });
    expect(html).toContain("Sanne ist bei Herzklang");
    expect(html).toMatch(/\d+ Jahre/);
  });
});
