/**
 * Supporting pages: the static legal and help pages (content in locales/<lng>/pages.json, filled with
 * the brand's and company's details), the landers' copy and the public member card of the member
 * landings. Texts are resolved here, on the server, so the browser never downloads the legal texts twice.
 */
import { eq, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { ageOn } from "~/lib/dates";
import type { TFunction } from "i18next";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { pageContext } from "~/lib/page.server";
import { getFixedT } from "~/lib/i18n.server";
import { getMember } from "./session.server";
import { profileAccess } from "./profiles.server";
import { approvedPhotoSql, type Viewer } from "./photos.server";
import { PREMIUM_PHOTOS, REACTIVATION_DAYS, type Language } from "~/lib/constants";
import { cleanPhone, nicheOf, termsVersionDate, type BrandWithCompany } from "./brand.server";
import { closedSignupKeys, type SignupState } from "./signup-rules";
import { signupForm } from "./tracking.server";
import { pricesFor } from "./credits.server";

/** The static pages under /pages/{slug}; "compliance" is also served at /2257. */
export const STATIC_PAGES = [
  "cookies",
  "privacy",
  "terms",
  "faq",
  "return-policy",
  "service",
  "ban",
  "compliance",
  // The German Impressum (§ 5 DDG): linked from the footer of German-language brands (decision 180).
  "impressum",
] as const;
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
const PAGE_BLOCKS: Record<
  StaticSlug,
  { company?: boolean; contact?: boolean; version?: boolean; accordion?: boolean }
> = {
  cookies: { company: true },
  privacy: { company: true, contact: true },
  terms: { company: true, version: true },
  faq: { accordion: true, contact: true },
  "return-policy": { contact: true },
  service: { contact: true },
  ban: { contact: true },
  compliance: { company: true },
  impressum: {},
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
    // The Impressum's details (decision 213).
    registerCourt: c.registerCourt,
    managingDirectors: c.managingDirectors,
    youthOfficer: c.youthOfficerName,
    youthContact: [c.youthOfficerEmail, c.youthOfficerPhone].filter(Boolean).join(" · "),
    board: c.disputeBoard,
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
  const base = pageVars(brand, lng);
  const stance = brand.company.disputeResolution;
  const vars = { ...base, dispute: stance ? (t(`static.impressum.dispute.${stance}`, base) as string) : "" };
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

/** The sign-up form's labels, shared by the landers and the member landings. */
export function signupCopy(brand: BrandWithCompany, t: TFunction, state: SignupState = "open") {
  return {
    title: t("signup.title", { brand: brand.name }),
    login: t("signup.login"),
    minAge: brand.minAge,
    closedTitle: t(closedSignupKeys(state === "open" ? "invite_only" : state).title),
    closed: t(closedSignupKeys(state === "open" ? "invite_only" : state).text),
  };
}

export const MEMBER_LANDINGS = ["landing", "landing2", "landing3", "signup"] as const;

/** A member landing (/members/{id}/landing, landing2, landing3, signup): 404 unless the member is public. */
export async function loadMemberLanding(
  request: Request,
  context: AppLoadContext,
  id: string | undefined,
  variant: (typeof MEMBER_LANDINGS)[number],
) {
  const viewer = await getMember(request, context);
  const [{ brand, t }, card] = await Promise.all([
    pageContext(request, context, "pages"),
    id ? publicMemberCard(context, id, viewer) : null,
  ]);
  if (!card || card.access === "not_found") throw new Response("Not found", { status: 404 });
  if (card.access === "blocked") {
    const tm = await getFixedT((await pageContext(request, context)).lng, "members");
    throw new Response(tm("block.noAccess"), { status: 403 });
  }
  const member = card.member;
  const vars = { brand: brand.name, name: member.name, minAge: brand.minAge };
  const form = signupForm(request, brand, member.id);
  // A team-run profile is labelled here as everywhere (decision 179): it neither "wants to chat" nor "liked" anyone.
  const copy = member.fictional ? "fictional" : variant;
  return {
    variant: `member-${variant}`,
    niche: nicheOf(brand),
    title: t(`memberLanding.${variant}.title`, vars),
    headline: t(`memberLanding.${copy}.headline`, vars),
    pitch: t(`memberLanding.${copy}.lead`, vars),
    points: t("landers.points", { ...vars, returnObjects: true }) as string[],
    signup: signupCopy(brand, t, form.state),
    form,
    member,
    ageLabel: t("memberLanding.age", { count: member.age }),
    // Visitors may report the member (decision 173).
    reportLabel: t("memberLanding.report"),
  };
}

/**
 * The public card of a member landing: name, age, city and main photo, behind the same access check
 * as the profile page (profileAccess): deleted accounts and disabled profiles are not advertised, and
 * a member blocked by this one does not see it (docs/architecture/security.md §5).
 */
export async function publicMemberCard(context: AppLoadContext, id: string, viewer: Viewer) {
  const { users: u, profiles: p, blocks: b } = schema;
  const [row] = await getDb(context.env.DB)
    .select({
      id: u.id,
      deletedAt: u.deletedAt,
      status: p.status,
      name: p.name,
      dateOfBirth: p.dateOfBirth,
      city: p.city,
      fictional: p.fictional,
      // A member landing is a lander: only an approved main photo (decision 175).
      mainPhotoId: sql<string | null>`${sql.raw(approvedPhotoSql('"profiles"."main_photo_id"'))}`,
      blockedViewer: sql<number>`EXISTS (SELECT 1 FROM ${b} WHERE ${b.blockerId} = ${u.id} AND ${b.blockedId} = ${viewer?.id ?? ""})`,
    })
    .from(u)
    .innerJoin(p, eq(p.userId, u.id))
    .where(eq(u.id, id));
  const access = profileAccess(
    row
      ? {
          id: row.id,
          deleted: row.deletedAt !== null,
          disabled: row.status !== "active",
          blockedViewer: !!row.blockedViewer,
        }
      : null,
    viewer,
  );
  if (access === "blocked") return { access } as const;
  if (access !== "ok" || !row) return { access: "not_found" } as const;
  return {
    access,
    member: {
      id: row.id,
      name: row.name,
      age: ageOn(row.dateOfBirth),
      city: row.city,
      mainPhotoId: row.mainPhotoId,
      fictional: row.fictional,
    },
  };
}
export type PublicMemberCard = {
  id: string;
  name: string;
  age: number;
  city: string;
  mainPhotoId: string | null;
  fictional: boolean;
};
