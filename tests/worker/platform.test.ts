import { env, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { resolveCountry } from "../../app/lib/request.server";
import { createMember, get, post } from "./fixtures";
import { walletBalance } from "../../app/wallet/wallet.server";
import { ledgerOf } from "./wallet-support";

describe("brand resolution", () => {
  it("serves each brand on its own hostname, in its own language", async () => {
    for (const [host, name, lang] of [
      ["localhost", "Amora", "en"],
      ["de.localhost", "Herzklang", "de"],
      ["nl.localhost", "Flirtlokaal", "nl"],
    ]) {
      const html = await (await get("/", { host })).text();
      expect(html).toContain(name);
      expect(html).toContain(`<html lang="${lang}"`);
    }
  });
  it("ignores the port and gives unknown hosts the default brand", async () => {
    expect(await (await get("/", { host: "de.localhost:8787" })).text()).toContain("Herzklang");
    expect(await (await get("/", { host: "unknown.example" })).text()).toContain("Amora");
  });
});

describe("language resolution", () => {
  it("takes the locale cookie first", async () => {
    const res = await get("/", { host: "de.localhost", cookie: "lng=fr" });
    expect(res.headers.get("Content-Language")).toBe("fr");
    expect(await res.text()).toContain('<html lang="fr"');
  });
  it("falls back to the brand's domain_language, then English", async () => {
    expect((await get("/", { host: "nl.localhost" })).headers.get("Content-Language")).toBe("nl");
    expect((await get("/", { host: "nl.localhost", cookie: "lng=xx" })).headers.get("Content-Language")).toBe("nl");
    await env.DB.prepare("UPDATE brands SET domain_language = 'pt_PT' WHERE id = 3").run();
    try {
      expect((await get("/", { host: "nl.localhost" })).headers.get("Content-Language")).toBe("en");
    } finally {
      await env.DB.prepare("UPDATE brands SET domain_language = 'nl_NL' WHERE id = 3").run();
    }
  });
  it("switches with the language dropdown and remembers it for 365 days", async () => {
    const res = await post("/lang-config", { lng: "sv", redirectTo: "/pages/faq" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/pages/faq");
    const cookie = res.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/^lng=sv;/);
    expect(cookie).toMatch(/Max-Age=31536000/);
  });
  it("refuses a redirect off the site after switching", async () => {
    const res = await post("/lang-config", { lng: "sv", redirectTo: "//evil.example/" });
    expect(res.headers.get("Location")).toBe("/");
  });
});

describe("country", () => {
  const request = (headers: Record<string, string>) => new Request("http://localhost/", { headers });
  const ctx = (ENVIRONMENT: string, country?: string) =>
    ({ env: { ENVIRONMENT }, cf: country ? { country } : undefined }) as unknown as Parameters<
      typeof resolveCountry
    >[1];
  it("comes from request.cf", () => {
    expect(resolveCountry(request({}), ctx("production", "DE"))).toBe("DE");
  });
  it("can be overridden by header or cookie outside production only", () => {
    expect(resolveCountry(request({ "X-Dev-Country": "nl" }), ctx("development", "US"))).toBe("NL");
    expect(resolveCountry(request({ Cookie: "dev_country=pl" }), ctx("development", "US"))).toBe("PL");
    expect(resolveCountry(request({ "X-Dev-Country": "NL" }), ctx("production", "US"))).toBe("US");
    expect(resolveCountry(request({ Cookie: "dev_country=PL" }), ctx("production", "US"))).toBe("US");
  });
  it("reaches the settings call from cf", async () => {
    const body = await (await get("/api/settings.php", { country: "AT" })).json<{ geoip_country: string }>();
    expect(body.geoip_country).toBe("AT");
  });
});

describe("site-entry warning", () => {
  const hasWarning = async (init: Parameters<typeof get>[1]) =>
    (await (await get("/", init)).text()).includes('data-testid="site-entry"');
  it("is shown to visitors from an allowed country, until skipped", async () => {
    expect(await hasWarning({ country: "NL" })).toBe(true);
    expect(await hasWarning({ country: "FR" })).toBe(true);
    expect(await hasWarning({ country: "NL", cookie: "entry_ok=1700000000000" })).toBe(false);
  });
  it("is not shown outside the brand's countries", async () => {
    expect(await hasWarning({ country: "US" })).toBe(false);
  });
  it("stores the skip flag with a timestamp", async () => {
    const res = await post("/api/site-entry", { redirectTo: "/" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Set-Cookie")).toMatch(/^entry_ok=\d{13};/);
  });
  it("is off when the brand disables it", async () => {
    await env.DB.prepare("UPDATE brands SET enable_site_entry_popup = 0 WHERE id = 1").run();
    try {
      expect(await hasWarning({ country: "NL" })).toBe(false);
    } finally {
      await env.DB.prepare("UPDATE brands SET enable_site_entry_popup = 1 WHERE id = 1").run();
    }
  });
});

describe("settings calls", () => {
  it("answers the brand's settings with the spec's field names", async () => {
    const res = await get("/api/settings.php", { host: "de.localhost", country: "DE" });
    expect(res.headers.get("Content-Type")).toMatch(/application\/json/);
    const s = await res.json<Record<string, unknown>>();
    expect(s).toMatchObject({
      name: "Herzklang",
      domain: "de.localhost",
      domain_language: "de_DE",
      niche: 6,
      geoip_country: "DE",
    });
    for (const key of [
      "cdn_prefix",
      "index_title",
      "description",
      "signups",
      "logged_out_search",
      "logged_out_search_trafficsource",
      "geoip_selected_country",
      "minimum_message_costs",
      "support_phone",
      "support_email",
      "push",
      "enable_site_entry_popup",
      "fictional_icon",
      "fictional_warning",
      "fictional_singular",
      "fictional_plural",
      "countries",
      "visible_profile_fields",
      "visible_profile_notes",
      "message_credits",
      "signup_credits",
      "photo_credits",
      "gift_credits",
      "message_length",
      "search_fields",
      "refund_days",
      "member_resell",
      "company_id",
      "mail_name",
      "interests",
    ])
      expect(s, key).toHaveProperty(key);
    expect((s.minimum_message_costs as Record<string, unknown>).DE).toEqual({ costs: 1, currency: "EUR" });
  });
  it("honours _force_domain", async () => {
    const s = await (
      await get("/api/settings.php?_force_domain=nl.localhost")
    ).json<{ name: string; domain_language: string }>();
    expect(s).toMatchObject({ name: "Flirtlokaal", domain_language: "nl_NL" });
  });
  it("answers the company info", async () => {
    const c = await (await get("/api/companyinfo.php", { host: "de.localhost" })).json<Record<string, unknown>>();
    expect(c).toMatchObject({ name: "Herzklang GmbH", city: "10117 Berlin", country: "DE", kvk: "HRB 245781 B" });
    for (const key of ["address", "tradenames", "vat_numbers", "support_phone", "delete_discount", "added"])
      expect(c).toHaveProperty(key);
  });
  it("answers the interests, named in the visitor's language", async () => {
    const { interests } = await (await get("/api/interests.php")).json<{ interests: { id: string; name: string }[] }>();
    expect(interests).toHaveLength(50);
    expect(interests[0]!.id).toBe("adventure");
  });
  it("answers the regions per country", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO regions (country, code, name) VALUES ('NL', 'NH', 'Noord-Holland'), ('NL', 'UT', 'Utrecht')",
    ).run();
    const { regions } = await (
      await get("/api/regions.php")
    ).json<{ regions: Record<string, { code: string; name: string }[]> }>();
    expect(regions.NL).toEqual([
      { code: "NH", name: "Noord-Holland" },
      { code: "UT", name: "Utrecht" },
    ]);
  });
  it("names regions in the page's language where the data has it, in that language's order (decision 133)", async () => {
    await env.DB.prepare(
      `INSERT OR REPLACE INTO regions (country, code, name, names) VALUES
        ('DE', '02', 'Bavaria', '{"de":"Bayern","fr":"Bavière"}'), ('DE', '07', 'North Rhine-Westphalia', '{"de":"Nordrhein-Westfalen"}'),
        ('DE', '16', 'Berlin', '{}')`,
    ).run();
    const names = async (lng: string) =>
      (
        await (
          await get(`/api/regions.php?lng=${lng}`, { host: "de.localhost" })
        ).json<{ regions: Record<string, { name: string }[]> }>()
      ).regions.DE!.map((r) => r.name);
    expect(await names("de")).toEqual(expect.arrayContaining(["Bayern", "Berlin", "Nordrhein-Westfalen"]));
    expect(await names("fr")).toEqual(expect.arrayContaining(["Bavière", "Berlin", "North Rhine-Westphalia"]));
    expect(await names("pl")).toContain("Bavaria"); // no Polish name in the data: the GeoNames one
    const de = await names("de");
    expect(de.indexOf("Bayern")).toBeLessThan(de.indexOf("Berlin"));
  });
});

describe("security headers", () => {
  it("are on every page with a fresh nonce that the scripts carry", async () => {
    const a = await get("/");
    const b = await get("/");
    const csp = a.headers.get("Content-Security-Policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(b.headers.get("Content-Security-Policy")).not.toContain(nonce);
    expect(await a.text()).toContain(`nonce="${nonce}"`);
    expect(a.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d+/);
    expect(a.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(a.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });
  it("are on JSON calls and error pages too", async () => {
    for (const path of ["/api/settings.php", "/no-such-page"]) {
      const res = await get(path);
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    }
  });
  it("refuse a cross-origin form post", async () => {
    const res = await post("/lang-config", { lng: "de" }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });
});

describe("error pages", () => {
  it("answers 404 with the spec's text and a link home", async () => {
    const res = await get("/no-such-page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("This page could not be found");
    expect(html).toContain("Back to the home page");
  });
  it("translates the 404 page", async () => {
    // From NL: Herzklang asks a visitor of an unnamed network for a proof first (decision 197).
    const html = await (await get("/no-such-page", { host: "de.localhost", country: "NL" })).text();
    expect(html).not.toContain("This page could not be found");
    expect(html).toContain('<html lang="de"');
  });
  it("answers 500 with the default message", async () => {
    const res = await get("/dev/error");
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain(">500<");
    expect(html).toContain(">Error<");
    expect(html).not.toContain("Deliberate failure");
  });
});

describe("online status", () => {
  it("goes offline when the page-hidden beacon arrives, and online again on the next visit", async () => {
    const { createMember, sessionCookie } = await import("./fixtures");
    const m = await createMember();
    const cookie = await sessionCookie(m.id);
    const lastSeen = async () =>
      (await env.DB.prepare("SELECT last_seen_at AS t FROM users WHERE id = ?1").bind(m.id).first<{ t: number }>())!.t;
    const hidden = await SELF.fetch("http://localhost/api/page-hidden.php", {
      method: "POST",
      headers: { Cookie: cookie, Origin: "http://localhost", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(hidden.status).toBe(204);
    const now = Math.floor(Date.now() / 1000);
    expect(await lastSeen()).toBeLessThan(now - 300);
    await (await get("/", { cookie })).text();
    // The refresh is written after the response (waitUntil): wait for the write itself, bounded.
    await vi.waitFor(async () => expect(await lastSeen()).toBeGreaterThanOrEqual(now - 5), {
      timeout: 5000,
      interval: 10,
    });
  });
});

describe("the e2e set-up endpoint", () => {
  it("answers 404 to anything but a POST on localhost", async () => {
    expect((await get("/dev/sql")).status).toBe(404);
    const res = await SELF.fetch("http://members.example/dev/sql", {
      method: "POST",
      headers: { Host: "members.example", "Content-Type": "application/json" },
      body: JSON.stringify({ statements: [{ sql: "SELECT 1" }], mode: "first" }),
    });
    expect(res.status).toBe(404);
  });

  it("/dev/wallet gives credits as the console does (the wallet's outbox) on localhost, and nowhere else", async () => {
    const m = await createMember();
    const give = (host: string, body: unknown) =>
      SELF.fetch(`http://${host}/dev/wallet`, {
        method: "POST",
        headers: { Host: host, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await give("members.example", { userId: m.id, credits: 7 })).status).toBe(404);
    expect((await give("localhost", { userId: m.id, credits: 1.5 })).status).toBe(400);
    expect(await walletBalance(env, m.id)).toBe(0);
    expect(await (await give("localhost", { userId: m.id, credits: 7 })).json()).toEqual({ balance: 7 });
    expect(await ledgerOf(m.id)).toMatchObject([{ delta: 7, reason: "adjustment" }]);
    const row = await env.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(m.id).first<{ credits: number }>();
    expect(row!.credits).toBe(7);
  });
});
