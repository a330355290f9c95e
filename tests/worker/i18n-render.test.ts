import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../app/lib/constants";
import { createMember, get, sessionCookie } from "./fixtures";

// A key the code asks for but no locale file has renders as the key itself ("steps.next"): look for
// text nodes and labels that are nothing but a dotted key.
const KEY = /^\s*[a-z][a-zA-Z0-9_]*(\.[a-zA-Z0-9_]+)+\s*$/;
const NOT_A_KEY = /\.(localhost|example|com|php|webp|png|js|css|svg)\s*$/;

function keysShown(html: string): string[] {
  const body = html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<style[\s\S]*?<\/style>/g, "");
  const texts = [
    ...body.matchAll(/>([^<]+)</g),
    ...body.matchAll(/\s(?:placeholder|aria-label|title|alt)="([^"]*)"/g),
  ].map((m) => m[1]!);
  return [...new Set(texts.filter((t) => KEY.test(t) && !NOT_A_KEY.test(t)).map((t) => t.trim()))];
}

const VISITOR_PAGES = [
  "/",
  "/members",
  "/signup",
  "/login",
  "/reset-password",
  "/pricing",
  "/pages/terms",
  "/pages/faq",
  "/no-such-page",
];
const MEMBER_PAGES = [
  "/members",
  "/likes",
  "/likes/sent",
  "/chats",
  "/profile",
  "/profile/photos",
  "/settings",
  "/settings/delete",
  "/notifications",
  "/swipe-game",
  "/match-finder",
  "/credits",
  "/premium",
  "/transactions",
  "/signup-matches",
  "/complete-signup",
  "/directdebit",
  "/directdebit?package=p1",
];

describe("every page renders translated text, in every language", () => {
  for (const lng of LANGUAGES) {
    it(`shows no untranslated keys in ${lng}`, async () => {
      const member = await createMember({ language: lng });
      const cookie = `${await sessionCookie(member.id)}; lng=${lng}; entry_ok=1`;
      const found: string[] = [];
      for (const [path, c] of [
        ...VISITOR_PAGES.map((p) => [p, `lng=${lng}; entry_ok=1`]),
        ...MEMBER_PAGES.map((p) => [p, cookie]),
      ]) {
        const res = await get(path!, { cookie: c });
        if (res.status >= 300 && res.status < 400) continue;
        for (const key of keysShown(await res.text())) found.push(`${path}: ${key}`);
      }
      expect(found).toEqual([]);
    });
  }
});
