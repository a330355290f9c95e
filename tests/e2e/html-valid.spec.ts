/**
 * Valid HTML on every page (decision 162): the server-rendered HTML of every page a visitor, a
 * free member and a premium member reach by following links, on each of the four demo brands, passes
 * html-validate's "standard" preset (what the HTML standard requires; no style rules). Pages are
 * fetched as a browser without JavaScript would (the same HTML); one page per route pattern.
 */
import { expect, test } from "./support/fixtures";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { HtmlValidate, type Message } from "html-validate";
import { E2E_PORT } from "./support/db";

test.describe.configure({ timeout: 300_000 });

const BRANDS = {
  localhost: "Amora",
  "de.localhost": "Herzklang",
  "nl.localhost": "Flirtlokaal",
  "se.localhost": "Hjärtslag",
};
const PASSWORD = "Demo-pass-2026";

// The recommended rules, without those about style rather than validity: how void elements close and
// booleans are written (React's output), SVG's camelCase attributes, inline styles (positions computed
// per member), explicit types and ids React generates, spaces in phone numbers, long titles.
const validator = new HtmlValidate({
  extends: ["html-validate:recommended"],
  rules: {
    "void-style": "off",
    "attr-case": "off",
    "attribute-boolean-style": "off",
    "attribute-empty-style": "off",
    "no-redundant-for": "off",
    "no-inline-style": "off",
    "no-implicit-input-type": "off",
    "no-implicit-button-type": "off",
    "valid-id": "off",
    "tel-non-breaking": "off",
    "long-title": "off",
    // Valid HTML: checkboxes of one question share their name; lists may carry a name.
    "form-dup-name": ["error", { shared: ["radio", "checkbox", "button", "reset", "submit"] }],
    "aria-label-misuse": ["error", { allowAnyNamable: true }],
  },
});

/** Pages that are no HTML documents, change state, or only exist outside production. */
const SKIP =
  /^\/(api|dev|photos|locales|sandbox|lang-config|unsubscribe|mail-change|reset-password\/do|activate\/?$|offline|healthz|settings\/data|manifest)|\.(php|webmanifest|json|js|css|png|svg|ico|webp|jpg|txt|xml)$/;

/** The route a path belongs to: ids (anything with a digit or long) become ":id". */
const patternOf = (path: string) =>
  path
    .split("/")
    .map((s) => (/\d/.test(s) || s.length >= 16 ? ":id" : s))
    .join("/");

type Client = { host: string; cookie: string };

/** A request to the e2e server for a brand's host (fetch drops a Host header; node:http keeps it). */
function request(
  host: string,
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: E2E_PORT,
        path,
        method: o.method ?? "GET",
        headers: { Host: `${host}:${E2E_PORT}`, ...o.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(o.body);
  });
}

function fetchPage(client: Client, path: string) {
  const headers: Record<string, string> = { Accept: "text/html", "User-Agent": "html-validity-check" };
  if (client.cookie) headers.Cookie = client.cookie;
  return request(client.host, path, { headers });
}

async function loginAs(host: string, email: string, password: string): Promise<string> {
  const res = await request(host, "/login", {
    method: "POST",
    // No Origin: a same-site form post of a client that sends none.
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }).toString(),
  });
  expect(res.status, `login of ${email} on ${host}`).toBe(302);
  return (res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
}

/** Follows same-site links from the start pages; validates each route pattern's first page. */
async function crawl(client: Client, starts: string[], limit = 160): Promise<{ pages: number; errors: string[] }> {
  const queue = [...starts];
  const seen = new Set<string>();
  const errors: string[] = [];
  let pages = 0;
  while (queue.length && pages < limit) {
    const path = queue.shift()!;
    const key = patternOf(path.split("?")[0]!);
    if (seen.has(key) || SKIP.test(path.split("?")[0]!)) continue;
    seen.add(key);
    const res = await fetchPage(client, path);
    if (res.status >= 300 && res.status < 400) {
      const to = res.headers.location;
      if (to?.startsWith("/")) queue.push(to);
      continue;
    }
    if (!(res.headers["content-type"] ?? "").includes("text/html")) continue;
    const html = res.text;
    expect(res.status, `${client.host}${path}`).toBeLessThan(500);
    pages += 1;
    // Nothing after the document's end (Remix's streamed data scripts came after </html>, decision 162).
    if (!html.trimEnd().endsWith("</html>")) errors.push(`${client.host}${path}: content after </html>`);
    const report = await validator.validateString(html, `${client.host}${path}`);
    for (const m of report.results.flatMap((r) => r.messages) as Message[]) {
      errors.push(`${client.host}${path}:${m.line}:${m.column} ${m.ruleId}: ${m.message} [${m.selector ?? ""}]`);
    }
    for (const m of html.matchAll(/href="(\/[^"#]*)"/g)) {
      const href = m[1]!.replace(/&amp;/g, "&");
      if (!seen.has(patternOf(href.split("?")[0]!))) queue.push(href);
    }
  }
  return { pages, errors };
}

const VISITOR_STARTS = [
  "/",
  "/login",
  "/signup",
  "/signup/sent",
  "/pricing",
  "/complaints",
  "/reset-password",
  "/activate/error",
  "/account-deleted",
  ...[
    "alonetonight",
    "collagelanding",
    "gallery",
    "iconslanding",
    "maplanding",
    "socialnetwork",
    "transitionsvideolanding",
    "video",
    "tinderswipe",
  ].map((k) => `/landers/${k}`),
];
const MEMBER_STARTS = [
  "/members",
  "/chats",
  "/likes",
  "/match-finder",
  "/swipe-game",
  "/profile",
  "/profile/photos",
  "/settings",
  "/settings/delete",
  "/notifications",
  "/credits",
  "/credits/repeat-order",
  "/transactions",
  "/directdebit",
  "/premium",
  "/pricing",
];

for (const [host, brand] of Object.entries(BRANDS)) {
  test(`every visitor page of ${host} is valid HTML`, async () => {
    expect((await fetchPage({ host, cookie: "" }, "/login")).text, "the brand answers its own host").toContain(brand);
    const { pages, errors } = await crawl({ host, cookie: "" }, VISITOR_STARTS);
    console.log(`${host}, visitor: ${pages} pages validated`);
    expect(pages).toBeGreaterThan(10);
    expect(errors).toEqual([]);
  });
}

for (const email of ["free@example.com", "premium@example.com"]) {
  test(`every page of ${email} is valid HTML`, async () => {
    const cookie = await loginAs("localhost", email, PASSWORD);
    const { pages, errors } = await crawl({ host: "localhost", cookie }, MEMBER_STARTS);
    console.log(`localhost, ${email}: ${pages} pages validated`);
    expect(pages).toBeGreaterThan(15);
    expect(errors).toEqual([]);
  });
}

// The other brands (their own currency, niche and language): a free and a premium member of each, as
// tests of their own (two workers share them).
for (const [brandId, host] of [
  [2, "de.localhost"],
  [3, "nl.localhost"],
  [4, "se.localhost"],
] as const) {
  for (const paidUser of [false, true]) {
    const plan = paidUser ? "premium" : "free";
    test(`every member page of ${host} is valid HTML, ${plan} member`, async ({ db }) => {
      const m = await db.createMember({
        brandId,
        paidUser,
        credits: paidUser ? 250 : 0,
        gender: "male",
        country: "DE",
      });
      // A member who has proved 18+: Herzklang asks one before its members area (decisions 185, 197).
      await db.DB.prepare(
        "INSERT INTO age_proofs (subject, method, proved_at, valid_until) VALUES (?1, 'eu_av_app', unixepoch(), unixepoch() + 86400)",
      )
        .bind(m.id)
        .run();
      const cookie = await loginAs(host, m.email, m.password);
      const { pages, errors } = await crawl({ host, cookie }, MEMBER_STARTS, 60);
      console.log(`${host}, ${plan} member: ${pages} pages validated`);
      expect(pages).toBeGreaterThan(15);
      expect(errors).toEqual([]);
    });
  }
}
