/**
 * Brands: one deployment, many hostnames. Resolves the brand of a request and shapes its settings
 * for /api/settings.php. Brands change rarely, so each isolate caches them for BRAND_CACHE_MS: a page
 * load costs no D1 round trip for its brand. A console save clears its own isolate's copy at once
 * (`forgetBrands`); every other isolate reloads within BRAND_CACHE_MS (decision 181).
 */
import { eq } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { isDeployed, type Env } from "~/lib/env";
import { INTERESTS, NICHES, TERMS_VERSION_DATE, type Niche } from "~/lib/constants";
import { isAdminPath } from "~/lib/admin-path";
import { accountView } from "~/lib/payments/account";
import { logError } from "~/lib/log.server";
import type { Copy } from "~/lib/i18n";

export type Brand = typeof schema.brands.$inferSelect;
export type Company = typeof schema.companies.$inferSelect;
export type BrandWithCompany = Brand & { company: Company };

/** How stale another isolate's brands may be after a console save: one small D1 read per isolate this often (decision 181). */
export const BRAND_CACHE_MS = 10_000;
let cache: { at: number; byHost: Map<string, BrandWithCompany>; fallback: BrandWithCompany } | null = null;

let generation = 0;

/** Drops this isolate's copy: the next request reads the brands again (after a console save). */
export function forgetBrands() {
  cache = null;
  generation++;
}

/** This isolate's brands, read again when older than BRAND_CACHE_MS (tests, ENVIRONMENT=test, always read). */
async function cached(env: Pick<Env, "DB" | "ENVIRONMENT">) {
  if (cache && Date.now() - cache.at <= BRAND_CACHE_MS && env.ENVIRONMENT !== "test") return cache;
  const started = generation;
  const fresh = await loadAll(env.DB);
  // A read that began before a save in this isolate may hold the old rows: use it once, keep it not.
  if (started === generation) cache = fresh;
  return fresh;
}

/**
 * The origin every mailed link starts with (docs/architecture/security.md §5, decision 085): the brand's configured
 * domain, never the request's Host. In production always https on the default port; elsewhere the
 * local server's scheme and port are kept so development mails can be clicked.
 */
export function linkOrigin(brand: Pick<Brand, "domain">, env: Pick<Env, "ENVIRONMENT">, request: Request): string {
  if (isDeployed(env)) return `https://${brand.domain}`;
  const url = new URL(request.url);
  return `${url.protocol}//${brand.domain}${url.port ? `:${url.port}` : ""}`;
}

/**
 * Where the provider sends the member back and calls its webhook: the brand's configured https origin
 * once deployed (never the request's Host, which a caller controls); locally the request's own origin,
 * so the sandbox's pages and tests on localhost work.
 */
export function paymentOrigin(brand: Pick<Brand, "domain">, env: Pick<Env, "ENVIRONMENT">, request: Request): string {
  return isDeployed(env) ? linkOrigin(brand, env, request) : new URL(request.url).origin;
}

async function loadAll(d1: D1Database) {
  const rows = await getDb(d1)
    .select()
    .from(schema.brands)
    .innerJoin(schema.companies, eq(schema.brands.companyId, schema.companies.id));
  const byHost = new Map<string, BrandWithCompany>();
  let fallback: BrandWithCompany | undefined;
  for (const { brands, companies } of rows) {
    const brand = { ...brands, company: companies };
    byHost.set(brand.hostname, brand);
    if (brand.isDefault || !fallback) fallback = brand.isDefault ? brand : (fallback ?? brand);
  }
  if (!fallback) throw new Error("No brand configured: run `npm run db:seed`");
  return { at: Date.now(), byHost, fallback };
}

/**
 * The brand for a hostname (port ignored, case-insensitive); unknown hosts get the default brand.
 * Tests (ENVIRONMENT=test) skip the cache so they can change brand settings between requests.
 */
export async function getBrandByHost(
  env: Pick<Env, "DB" | "ENVIRONMENT">,
  host: string | null,
): Promise<BrandWithCompany> {
  const c = await cached(env);
  const hostname = (host ?? "").toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  return c.byHost.get(hostname) ?? c.byHost.get(hostname.replace(/^www\./, "")) ?? c.fallback;
}

/** Every brand with its company, by id (the console works across brands; same per-isolate cache). */
export async function brandsById(env: Pick<Env, "DB" | "ENVIRONMENT">): Promise<Map<number, BrandWithCompany>> {
  return new Map([...(await cached(env)).byHost.values()].map((b) => [b.id, b]));
}

/** A brand by its id (the console acts for members of every brand), from the same cache; null if unknown. */
export async function getBrandById(env: Pick<Env, "DB" | "ENVIRONMENT">, id: number): Promise<BrandWithCompany | null> {
  return (await brandsById(env)).get(id) ?? null;
}

/** The brand's copy (decision 212): a brand that runs team profiles reads the entertainment variants. */
export function copyOf(brand: Pick<Brand, "runsTeamProfiles">): Copy {
  return brand.runsTeamProfiles ? "entertainment" : null;
}

export function nicheOf(brand: Pick<Brand, "niche">): Niche {
  return NICHES[brand.niche as keyof typeof NICHES] ?? "general";
}

/** A brand needs an Impressum when its language is German or its company sits in Germany or Austria (decision 213). */
export function needsImpressum(domainLanguage: string, companyCountry: string): boolean {
  return domainLanguage.toLowerCase().startsWith("de") || ["DE", "AT"].includes(companyCountry.toUpperCase());
}

/** docs/product/limits.md §9: the terms version is 2023-12-01T12:00:00Z, or the company's added date if later. */
export function termsVersionDate(company: Pick<Company, "added">): string {
  const base = new Date(TERMS_VERSION_DATE);
  const added = new Date(company.added);
  return (Number.isNaN(added.getTime()) || added <= base ? base : added).toISOString();
}

/** docs/product/limits.md §9: the clean support phone number drops dashes and spaces. */
export function cleanPhone(phone: string): string {
  return phone.replace(/[\s-]/g, "");
}

/** The settings call's answer, with the spec's field names. */
export function settingsOf(brand: BrandWithCompany, opts: { country: string; selectedCountry?: string | null }) {
  return {
    name: brand.name,
    domain: brand.domain,
    domain_language: brand.domainLanguage,
    cdn_prefix: brand.cdnPrefix,
    niche: brand.niche,
    index_title: brand.indexTitle,
    description: brand.description,
    signups: brand.signups,
    logged_out_search: brand.loggedOutSearch,
    logged_out_search_trafficsource: brand.loggedOutSearchTrafficsource,
    geoip_country: opts.country,
    geoip_selected_country: opts.selectedCountry ?? opts.country,
    minimum_message_costs: brand.minimumMessageCosts,
    support_phone: brand.supportPhone,
    support_email: brand.supportEmail,
    push: { public_key: brand.pushPublicKey },
    enable_site_entry_popup: brand.enableSiteEntryPopup,
    fictional_icon: brand.fictionalIcon,
    fictional_warning: brand.fictionalWarning,
    fictional_singular: brand.fictionalSingular,
    fictional_plural: brand.fictionalPlural,
    countries: brand.countries,
    visible_profile_fields: brand.visibleProfileFields,
    visible_profile_notes: brand.visibleProfileNotes,
    message_credits: brand.messageCredits,
    signup_credits: brand.signupCredits,
    photo_credits: brand.photoCredits,
    gift_credits: brand.giftCredits,
    message_length: brand.messageLength,
    search_fields: brand.searchFields,
    refund_days: brand.refundDays,
    member_resell: brand.memberResell,
    company_id: brand.companyId,
    mail_name: brand.mailName,
    min_age: brand.minAge,
    interests: INTERESTS,
  };
}

export function companyInfoOf(brand: BrandWithCompany) {
  const c = brand.company;
  return {
    name: c.name,
    address: c.address,
    kvk: c.kvk,
    city: c.city,
    country: c.country,
    tradenames: c.tradenames,
    vat_numbers: c.vatNumbers,
    support_phone: c.supportPhone,
    delete_discount: c.deleteDiscount,
    added: c.added,
  };
}

const refusedLogged = new Set<string>();

/**
 * Staging and production never serve a brand whose company cannot take its money (decision 206): no
 * Mollie account named, its key missing or of the wrong mode, or an organisation token without the
 * brand's profile. Every page of that brand answers 503 with a plain page, and one log line per
 * isolate names the brand, the company and the secret (never a value). The console is still served,
 * where the brand's and company's settings show what is missing.
 */
export async function refuseBrandWithoutAccount(env: Env, request: Request): Promise<Response | null> {
  if (!isDeployed(env)) return null;
  const url = new URL(request.url);
  if (isAdminPath(url.pathname) || /^\/api\/admin(?:[/.]|$)/.test(url.pathname)) return null;
  // The deployment's own health checks are not a brand's pages.
  if (url.pathname === "/healthz" || url.pathname === "/readyz") return null;
  if (env.ADMIN_HOST && url.hostname.toLowerCase() === env.ADMIN_HOST.trim().toLowerCase()) return null;
  const brand = await getBrandByHost(env, request.headers.get("Host") ?? url.host);
  const account = accountView(env, brand);
  if (!account.problem) return null;
  const line = `${brand.id}:${account.problem}`;
  if (!refusedLogged.has(line)) {
    refusedLogged.add(line);
    logError("config.brand_without_payment_account", undefined, {
      environment: env.ENVIRONMENT,
      brand: brand.name,
      company: brand.company.name,
      secret: account.secret,
      problem: account.problem,
    });
  }
  return new Response(
    "<!doctype html><title>503 Not configured</title><h1>503 Not configured</h1>" +
      "<p>This site is not configured yet: its company has no payment account.</p>\n",
    {
      status: 503,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "300" },
    },
  );
}
