import type { BrandWithCompany } from "~/models/brand.server";
import type { Member } from "~/models/session.server";
import { copyOf, nicheOf, termsVersionDate, cleanPhone, needsImpressum } from "~/models/brand.server";
import type { SignupState, Tracking } from "~/models/signup-rules";
import type { Language } from "./constants";
import { nowS } from "~/lib/dates";
import { welcomeRemaining } from "~/lib/offers";
import type { MemberPrompt } from "~/lib/member-alerts";

/** What the root loader gives every page (the chrome's data); components read it through this type. */
export interface RootData {
  lang: Language;
  country: string;
  brand: ReturnType<typeof publicBrand>;
  member: ReturnType<typeof publicMember> | null;
  /** The welcome offer at this load (members only), see welcomeOfferAtLoad. */
  welcomeOffer: ReturnType<typeof welcomeOfferAtLoad>;
  /** The member prompts this member may get, most important first; a page shows one (decision 179). */
  prompts: MemberPrompt[];
  siteEntrySkipped: boolean;
  /** For visitors: whether and how they may sign up, and the partners' tracking (docs/product/roles.md §6). */
  signup: { state: SignupState; tracking: Tracking } | null;
  dev: boolean;
  /** On the operator console (/admin): its stylesheet; the page then carries no member chrome and no scripts (decision 167). */
  admin?: string;
}

/** The footer's links (docs/product/screens.md §2), as [label key under footer., path]. */
const FOOTER_LINKS = [
  ["terms", "/pages/terms"],
  ["privacy", "/pages/privacy"],
  ["cookies", "/pages/cookies"],
  ["ban", "/pages/ban"],
  ["pricing", "/pricing"],
  ["complaints", "/complaints"],
  ["returnPolicy", "/pages/return-policy"],
  ["faq", "/pages/faq"],
  ["service", "/pages/service"],
] as const;

/**
 * A German or Austrian brand (its language or its company) also links its Impressum (§ 5 DDG; decisions 180, 213). Decided here, on
 * the server, so the footer's code (in the landing page's budget) stays a plain list.
 */
export function footerLinksOf(domainLanguage: string, companyCountry: string): (readonly [string, string])[] {
  return needsImpressum(domainLanguage, companyCountry)
    ? [...FOOTER_LINKS, ["impressum", "/pages/impressum"]]
    : [...FOOTER_LINKS];
}

/** The part of a brand every page may see (nothing secret, nothing per member). */
export function publicBrand(b: BrandWithCompany) {
  return {
    name: b.name,
    hostname: b.hostname,
    domain: b.domain,
    niche: nicheOf(b),
    indexTitle: b.indexTitle,
    description: b.description,
    supportEmail: b.supportEmail,
    supportPhone: b.supportPhone,
    supportPhoneClean: cleanPhone(b.supportPhone),
    enableSiteEntryPopup: b.enableSiteEntryPopup,
    siteEntryCountries: b.siteEntryCountries,
    refundDays: b.refundDays,
    // Team-run profiles' mark (docs/product/data.md §3 brand settings); the brand's own words in its own language.
    fictional: {
      icon: b.fictionalIcon,
      singular: b.fictionalSingular,
      warning: b.fictionalWarning,
      lang: b.domainLanguage.slice(0, 2),
    },
    minAge: b.minAge,
    signups: b.signups,
    termsVersion: termsVersionDate(b.company),
    footerLinks: footerLinksOf(b.domainLanguage, b.company.country),
    // Which copy the pages read (decision 212); the browser's reader takes it from <html data-copy>.
    copy: copyOf(b),
    company: {
      name: b.company.name,
      address: b.company.address,
      city: b.company.city,
      country: b.company.country,
      kvk: b.company.kvk,
      vatNumbers: b.company.vatNumbers,
      tradenames: b.company.tradenames,
    },
  };
}

/** The logged-in member as the chrome needs them. */
export function publicMember(m: Member) {
  return {
    id: m.id,
    name: m.name,
    paidUser: m.paidUser,
    credits: m.credits,
    status: m.status,
    profileStatus: m.profileStatus,
    hasMainImage: m.mainPhotoId !== null,
    createdAt: m.createdAt,
    pushSubscribed: m.pushSubscribed,
    unreadMessages: m.unreadMessages,
    newLikes: m.newLikes,
    notificationsDisabled: m.notificationsDisabled,
  };
}

/**
 * The welcome offer at this load (docs/product/states.md §4): when it ends (server time) and the seconds left now;
 * null when none runs (visitors, paid users, a sign-up older than the brand's welcome window).
 */
export function welcomeOfferAtLoad(m: Member | null, welcomeDiscountS: number) {
  const left = welcomeRemaining(m, welcomeDiscountS, nowS());
  return m && left > 0 ? { ends: m.createdAt + welcomeDiscountS, left } : null;
}
