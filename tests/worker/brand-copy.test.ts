/**
 * A brand that runs team profiles presents a chat and flirt entertainment service (decision 212): no
 * page a visitor sees (landing of every niche, every lander, sign-up, a team-run profile's public
 * pages, the static legal and help pages, the footer, the title and meta description) and no mail, in any of the 11 languages, promises a
 * date or a meeting or says someone is waiting (the word lists of tests/support/date-words.ts). A brand
 * without team profiles keeps its dating copy, and its static pages claim no team-run profiles, no
 * entertainment and no "meeting is not the purpose" (the phrase lists beside them).
 */
import { env } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import { LANGUAGES, NICHES, type Language } from "../../app/lib/constants";
import { LANDER_KINDS } from "../../app/models/landers.server";
import { STATIC_PAGES } from "../../app/models/pages.server";
import { getFixedT } from "../../app/lib/i18n.server";
import { deliver } from "../../app/models/notify.server";
import { mailerFor } from "../../app/models/mail.server";
import { dateWordsIn, teamClaimsIn } from "../support/date-words";
import { createMember, get } from "./fixtures";
import { lastMailTo, send, signupForm } from "./accounts-support";
import { outboxMailer, senders } from "./notify-support";
import notifyTexts from "../../locales/en/notify.json";
import accountTexts from "../../locales/en/account.json";

/** The keys of a locale tree as t() reads them: plural forms and copy variants under their plain key. */
function leafKeys(tree: object, prefix = ""): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix + k.replace(/_(one|other|few|many|zero|two)$/, "").replace(/_entertainment$/, "");
    if (v && typeof v === "object" && !Array.isArray(v)) for (const l of leafKeys(v, `${key}.`)) out.add(l);
    else out.add(key);
  }
  return [...out];
}

/** What a person reads on a page: the title, the meta description and the body's text, without scripts. */
async function readable(res: Response) {
  const html = await res.text();
  const meta = [...html.matchAll(/<meta[^>]+(?:name="description"|property="og:title")[^>]+content="([^"]*)"/g)].map(
    (m) => m[1],
  );
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
  const body = html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<style[\s\S]*?<\/style>/g, " ")
    .replace(/<head>[\s\S]*?<\/head>/, " ")
    .replace(/<[^>]+>/g, " ");
  return [title, ...meta, body]
    .join(" \n ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&nbsp;/g, " ");
}

const page = async (path: string, host: string, lng: Language) => {
  const res = await get(path, { host, country: "NL", headers: { Cookie: `lng=${lng}; entry_ok=1` } });
  expect(res.status, `${host}${path} (${lng})`).toBe(200);
  return readable(res);
};

const findings: string[] = [];
const check = (where: string, text: string, lng: Language) => {
  for (const hit of dateWordsIn(text, lng)) findings.push(`${where} [${lng}]: …${hit}…`);
};

/** The static pages a visitor reaches from the footer (the Impressum only where a brand needs one). */
const STATIC_PATHS = [
  ...STATIC_PAGES.filter((s) => s !== "impressum").map((s) => `/pages/${s}`),
  "/complaints",
  "/pricing",
];

const setNiche = (id: number) => env.DB.prepare("UPDATE brands SET niche = ?1 WHERE id = 1").bind(id).run();
afterAll(() => setNiche(1));

describe("a brand that runs team profiles promises no dates or meetings", () => {
  it("the landing of every niche, every lander, sign-up and the footer, in every language", async () => {
    findings.length = 0;
    for (const [id, niche] of Object.entries(NICHES)) {
      await setNiche(Number(id));
      for (const lng of LANGUAGES) {
        check(`/ (${niche})`, await page("/", "localhost", lng), lng);
        check(`/landers/gallery/${niche}`, await page(`/landers/gallery/${niche}`, "localhost", lng), lng);
      }
    }
    await setNiche(1);
    for (const lng of LANGUAGES) {
      check("/signup", await page("/signup", "localhost", lng), lng);
      for (const kind of LANDER_KINDS) check(`/landers/${kind}`, await page(`/landers/${kind}`, "localhost", lng), lng);
      // The other demo brands with team profiles: Herzklang (milf) and Flirtlokaal (she), with their own titles.
      check("de.localhost/", await page("/", "de.localhost", lng), lng);
      check("nl.localhost/", await page("/", "nl.localhost", lng), lng);
    }
    // The brands' own title and description are in the brand's language.
    check("Herzklang's title and description", await page("/", "de.localhost", "de"), "de");
    check("Flirtlokaal's title and description", await page("/", "nl.localhost", "nl"), "nl");
    expect(findings).toEqual([]);
  });

  it("a team-run profile's public pages, in every language", async () => {
    findings.length = 0;
    const team = await createMember({ name: "Lina", gender: "female" });
    await env.DB.prepare("UPDATE profiles SET fictional = 1 WHERE user_id = ?1").bind(team.id).run();
    for (const lng of LANGUAGES)
      for (const path of ["landing", "landing2", "landing3", "signup"])
        check(`/members/${path}`, await page(`/members/${team.id}/${path}`, "localhost", lng), lng);
    expect(findings).toEqual([]);
  });

  it("the static pages (terms, FAQ, privacy, cookies, returns, service, ban, complaints, prices) and the Impressum, in every language", async () => {
    findings.length = 0;
    for (const lng of LANGUAGES) {
      for (const path of STATIC_PATHS) check(path, await page(path, "localhost", lng), lng);
      // The Impressum is Herzklang's (a German-language brand with team profiles, decision 213).
      check("de.localhost/pages/impressum", await page("/pages/impressum", "de.localhost", lng), lng);
    }
    expect(findings).toEqual([]);
  });

  it("mails: the sign-up mail, the digests and every text of the notification and account mails, in every language", async () => {
    findings.length = 0;
    for (const lng of LANGUAGES) {
      const form = signupForm();
      expect((await send("/signup", form, { headers: { Cookie: `lng=${lng}` } })).status).toBe(302);
      const mail = (await lastMailTo(form.email))!;
      check("sign-up mail", `${mail.subject}\n${mail.text}`, lng);

      const member = await createMember({ language: lng });
      const mailer = outboxMailer(mailerFor(env));
      for (const type of ["reminders", "new_members"] as const)
        await deliver(env, { kind: "digest", type, userId: member.id, ref: `copy-${lng}` }, senders({ mailer }));
      expect(mailer.sent.length, lng).toBeGreaterThan(0);
      for (const m of mailer.sent) check(`${m.subject} mail`, `${m.subject}\n${m.text}`, lng);

      // Every text a notification or account mail can use, as this brand reads them.
      for (const [ns, tree] of [
        ["notify", notifyTexts],
        ["account", { mail: accountTexts.mail }],
      ] as const) {
        const t = await getFixedT(lng, ns, "entertainment");
        for (const key of leafKeys(tree))
          check(`${ns}:${key}`, t(key, { brand: "Amora", name: "Lina", count: 2 }), lng);
      }
    }
    expect(findings).toEqual([]);
  });
});

describe("a brand without team profiles keeps its dating copy", () => {
  it("Hjärtslag's landing still invites to meet singles", async () => {
    expect(await page("/", "se.localhost", "en")).toContain("Meet singles near you");
    expect(await page("/", "se.localhost", "en")).toContain("online dating and chat service");
  });

  it("Hjärtslag's static pages claim no team-run profiles and no entertainment, in every language", async () => {
    const claims: string[] = [];
    for (const lng of LANGUAGES)
      for (const path of STATIC_PATHS)
        for (const hit of teamClaimsIn(await page(path, "se.localhost", lng), lng))
          claims.push(`se.localhost${path} [${lng}]: …${hit}…`);
    expect(claims).toEqual([]);
  });
});
