/**
 * Supporting pages: the static legal and help pages (content in locales/<lng>/pages.json, filled with
 * the brand's and company's details), the landers' copy and the public member card of the member
 * landings. Texts are resolved here, on the server, so the browser never downloads the legal texts twice.
 */
import { ageOn, latestBirthDate } from "~/lib/dates";
import type { TFunction } from "i18next";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { pageContext } from "~/lib/page.server";
import { PREMIUM_PHOTOS, REACTIVATION_DAYS, type Language } from "~/lib/constants";
import { cleanPhone, nicheOf, termsVersionDate, type BrandWithCompany } from "./brand.server";
import { pricesFor } from "./credits.server";

/** The static pages under /pages/{slug}; "compliance" is also served at /2257. */
export const STATIC_PAGES = ["cookies", "privacy", "terms", "faq", "return-policy", "service", "ban", "compliance"] as const;
export type StaticSlug = (typeof STATIC_PAGES)[number] | "complaints";

/** Top-level tokens of the spec's `{token}` static page. */
const TOKENS = new Map<string, StaticSlug>([["2257", "compliance"]]);

export function isStaticSlug(slug: string | undefined): slug is (typeof STATIC_PAGES)[number] {
  return (STATIC_PAGES as readonly string[]).includes(slug ?? "");
}

export function slugOfToken(token: string | undefined): StaticSlug | null {
  return (token && TOKENS.get(token)) || null;
}

/** Which blocks a page shows besides its sections. */
const PAGE_BLOCKS: Record<StaticSlug, { company?: boolean; contact?: boolean; version?: boolean; accordion?: boolean }> = {
  cookies: { company: true },
  privacy: { company: true, contact: true },
  terms: { company: true, version: true },
  faq: { accordion: true, contact: true },
  "return-policy": { contact: true },
  service: { contact: true },
  ban: { contact: true },
  compliance: { company: true },
  complaints: { contact: true },
};

export interface PageSection {
  h: string;
  p?: string[];
  ul?: string[];
}

function countryName(lng: Language, code: string): string {
  try {
    return new Intl.DisplayNames([lng], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function formatDate(lng: Language, iso: string): string {
  return new Intl.DateTimeFormat(lng, { dateStyle: "long", timeZone: "UTC" }).format(new Date(iso));
}

/** Every value a page text may interpolate ({{brand}}, {{company}}, {{refundDays}}, …). */
export function pageVars(brand: BrandWithCompany, lng: Language) {
  const c = brand.company;
  const prices = pricesFor(brand, null);
  return {
    brand: brand.name,
    domain: brand.domain,
    company: c.name,
    address: c.address,
    city: c.city,
    country: countryName(lng, c.country),
    kvk: c.kvk,
    vat: c.vatNumbers.join(", "),
    tradenames: c.tradenames.join(", "),
    email: brand.supportEmail,
    phone: brand.supportPhone,
    refundDays: brand.refundDays,
    minAge: brand.minAge,
    // The brand's own prices (no country): what a message costs where no country price is set.
    messageCredits: prices.message,
    photoCredits: prices.photo,
    giftCredits: prices.gift,
    premiumPhotos: PREMIUM_PHOTOS,
    reactivationDays: REACTIVATION_DAYS,
    chatHistoryDays: brand.chatHistoryDays,
  };
}

/** The company block every legal page can show (labels translated, values from the brand). */
export function companyDetails(brand: BrandWithCompany, lng: Language, t: TFunction) {
  const v = pageVars(brand, lng);
  const rows: [string, string][] = [
    [t("company.name"), v.company],
    [t("company.address"), `${v.address}, ${v.city}, ${v.country}`],
    [t("company.kvk"), v.kvk],
    [t("company.vat"), v.vat],
    [t("company.tradenames"), v.tradenames],
    [t("company.email"), v.email],
    [t("company.phone"), v.phone],
  ];
  return { title: t("company.title"), rows: rows.map(([label, value]) => ({ label, value })) };
}

/** Everything a static page renders, already translated for the request's language and brand. */
export function staticPage(slug: StaticSlug, brand: BrandWithCompany, lng: Language, t: TFunction) {
  const vars = pageVars(brand, lng);
  const blocks = PAGE_BLOCKS[slug];
  const text = (key: string) => t(`static.${slug}.${key}`, vars) as string;
  return {
    slug,
    title: text("title"),
    intro: text("intro"),
    sections: t(`static.${slug}.sections`, { ...vars, returnObjects: true }) as PageSection[],
    accordion: !!blocks.accordion,
    version: blocks.version ? t("version", { date: formatDate(lng, termsVersionDate(brand.company)) }) : null,
    company: blocks.company ? companyDetails(brand, lng, t) : null,
    contact: blocks.contact
      ? {
          title: t("contact.title"),
          lead: t("contact.lead", vars),
          emailLabel: t("company.email"),
          phoneLabel: t("company.phone"),
          postLabel: t("contact.post"),
          email: brand.supportEmail,
          phone: brand.supportPhone,
          phoneClean: cleanPhone(brand.supportPhone),
          post: [vars.company, vars.address, vars.city, vars.country],
        }
      : null,
  };
}
export type StaticPageData = ReturnType<typeof staticPage>;

/** A static page's loader: null slugs are a 404. */
export async function loadStaticPage(request: Request, context: AppLoadContext, slug: StaticSlug | null) {
  if (!slug) throw new Response("Not found", { status: 404 });
  const { brand, lng, t } = await pageContext(request, context, "pages");
  return staticPage(slug, brand, lng, t);
}

/** The lander kinds of SPEC section 2 that take an optional slug; tinderswipe has its own route. */
export const LANDER_KINDS = [
  "alonetonight", "collagelanding", "gallery", "iconslanding", "maplanding", "socialnetwork",
  "transitionsvideolanding", "video",
] as const;
export type LanderKind = (typeof LANDER_KINDS)[number] | "tinderswipe";

export function isLanderKind(kind: string | undefined): kind is LanderKind {
  return kind === "tinderswipe" || (LANDER_KINDS as readonly string[]).includes(kind ?? "");
}

/** The sign-up form's labels, shared by the landers and the member landings. */
export function signupCopy(brand: BrandWithCompany, t: TFunction) {
  return {
    title: t("signup.title", { brand: brand.name }),
    email: t("signup.email"),
    name: t("signup.name"),
    dateOfBirth: t("signup.dateOfBirth", { minAge: brand.minAge }),
    password: t("signup.password"),
    submit: t("signup.submit"),
    terms: t("signup.terms", { brand: brand.name, minAge: brand.minAge }),
    termsLink: t("signup.termsLink"),
    login: t("signup.login"),
    maxBirthDate: latestBirthDate(brand.minAge),
  };
}


/** A lander's page: the kind sets the angle, the brand's niche sets the pitch. Unknown kinds are a 404. */
export async function loadLander(request: Request, context: AppLoadContext, kind: string | undefined) {
  if (!isLanderKind(kind)) throw new Response("Not found", { status: 404 });
  const { brand, t } = await pageContext(request, context, "pages");
  const niche = nicheOf(brand);
  const vars = { brand: brand.name, minAge: brand.minAge };
  return {
    variant: kind,
    niche,
    title: t(`landers.${kind}.title`, vars),
    headline: t(`landers.${kind}.headline`, vars),
    pitch: t(`niche.${niche}`, vars),
    points: t("landers.points", { ...vars, returnObjects: true }) as string[],
    signup: signupCopy(brand, t),
    swipe: kind === "tinderswipe" ? { like: t("swipe.like"), pass: t("swipe.pass"), caption: t("swipe.caption") } : undefined,
  };
}

export const MEMBER_LANDINGS = ["landing", "landing2", "landing3", "signup"] as const;

/** A member landing (/members/{id}/landing, landing2, landing3, signup): 404 unless the member is public. */
export async function loadMemberLanding(
  request: Request, context: AppLoadContext, id: string | undefined, variant: (typeof MEMBER_LANDINGS)[number],
) {
  const [{ brand, t }, member] = await Promise.all([
    pageContext(request, context, "pages"),
    id ? publicMemberCard(context, id) : null,
  ]);
  if (!member) throw new Response("Not found", { status: 404 });
  const vars = { brand: brand.name, name: member.name, minAge: brand.minAge };
  return {
    variant: `member-${variant}`,
    niche: nicheOf(brand),
    title: t(`memberLanding.${variant}.title`, vars),
    headline: t(`memberLanding.${variant}.headline`, vars),
    pitch: t(`memberLanding.${variant}.lead`, vars),
    points: t("landers.points", { ...vars, returnObjects: true }) as string[],
    signup: signupCopy(brand, t),
    member,
    ageLabel: t("memberLanding.age", { count: member.age }),
  };
}


/**
 * The public card of a member landing: name, age, city and main photo. Deleted accounts and disabled
 * profiles (unconfirmed or suspended) are not advertised: null, and the route answers 404.
 */
export async function publicMemberCard(context: AppLoadContext, id: string) {
  const row = await context.env.DB.prepare(
    `SELECT u.id, p.name, p.date_of_birth, p.city, p.main_photo_id
     FROM users u JOIN profiles p ON p.user_id = u.id
     WHERE u.id = ?1 AND u.deleted_at IS NULL AND p.status = 'active'`,
  )
    .bind(id)
    .first<{ id: string; name: string; date_of_birth: string; city: string; main_photo_id: string | null }>();
  if (!row) return null;
  return { id: row.id, name: row.name, age: ageOn(row.date_of_birth), city: row.city, mainPhotoId: row.main_photo_id };
}
export type PublicMemberCard = NonNullable<Awaited<ReturnType<typeof publicMemberCard>>>;
