/**
 * The landers of docs/product/screens.md §2 (/landers/{kind}/{slug?}): each kind its own design around real,
 * recently active members of one niche. The slug picks the niche (general, she, bdsm, bbw, gilf, milf,
 * gay); anything else falls back to the brand's niche. Copy is resolved here, on the server, so the
 * browser loads no extra namespace (the landing JavaScript budget).
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { NICHES, type Niche } from "~/lib/constants";
import { EUROPE_MAP } from "~/lib/europe-map.generated";
import { getFixedT } from "~/lib/i18n.server";
import { pageContext } from "~/lib/page.server";
import { copyOf, nicheOf, type BrandWithCompany } from "./brand.server";
import { landingMembers, type LandingMember } from "./landing.server";
import { signupCopy } from "./pages.server";
import { NICHE_WHO } from "./signup-rules";
import { signupForm } from "./tracking.server";

export const LANDER_KINDS = [
  "alonetonight",
  "collagelanding",
  "gallery",
  "iconslanding",
  "maplanding",
  "socialnetwork",
  "transitionsvideolanding",
  "video",
  "tinderswipe",
] as const;
export type LanderKind = (typeof LANDER_KINDS)[number];

export function isLanderKind(kind: string | undefined): kind is LanderKind {
  return (LANDER_KINDS as readonly string[]).includes(kind ?? "");
}

const NICHE_SLUGS = Object.values(NICHES) as readonly string[];

/** The niche a lander speaks to: its slug when that names a niche, else the brand's. */
export function nicheOfSlug(slug: string | undefined, brand: Pick<BrandWithCompany, "niche">): Niche {
  const s = (slug ?? "").toLowerCase();
  return NICHE_SLUGS.includes(s) ? (s as Niche) : nicheOf(brand);
}

/**
 * Where a member's city sits on the generated dot map, in whole percent of its width and height:
 * one step is about 40 km, coarser than any city, so a pin never says more than the city does.
 */
export function mapPosition(lat: number | null, lon: number | null): { x: number; y: number } | null {
  const m = EUROPE_MAP;
  if (lat === null || lon === null || lat < m.south || lat >= m.north || lon < m.west || lon >= m.east) return null;
  const x = (((lon - m.west) * m.lonScale) / m.cell / m.cols) * 100;
  const y = ((m.north - lat) / m.cell / m.rows) * 100;
  return { x: Math.round(x), y: Math.round(y) };
}

/** What a lander shows of a member: name, age, city, photo and the map cell (no made-up activity, decision 202). */
export interface LanderMember {
  id: string;
  name: string;
  age: number;
  city: string;
  photoId: string;
  near: boolean;
  x: number | null;
  y: number | null;
}

function toLanderMember(m: LandingMember, country: string): LanderMember {
  const pos = mapPosition(m.lat, m.lon);
  return {
    id: m.id,
    name: m.name,
    age: m.age,
    city: m.city,
    photoId: m.photoId,
    near: m.country === country,
    x: pos?.x ?? null,
    y: pos?.y ?? null,
  };
}

/** A lander's page data. Unknown kinds are a 404. */
export async function loadLander(
  request: Request,
  context: AppLoadContext,
  kind: string | undefined,
  slug: string | undefined,
) {
  if (!isLanderKind(kind)) throw new Response("Not found", { status: 404 });
  const { brand, lng, t, country } = await pageContext(request, context, "landers");
  const niche = nicheOfSlug(slug, brand);
  const members = await landingMembers(context.env, niche, brand.minAge, country);
  // The slug's niche also preselects (or decides) who the visitor is and looks for.
  const form = { ...signupForm(request, brand), who: NICHE_WHO[niche] };
  const vars = { brand: brand.name, minAge: brand.minAge };
  const place = country === "XX" ? "" : (new Intl.DisplayNames([lng], { type: "region" }).of(country) ?? "");
  return {
    kind,
    niche,
    title: t(`pages:landers.${kind}.title`, vars),
    copy: {
      kicker: t(`niche.${niche}`),
      headline: t(`pages:landers.${kind}.headline`, vars),
      lead: t(`pages:niche.${niche}`, vars),
      cta: t("cta"),
      points: t("pages:landers.points", { ...vars, returnObjects: true }) as string[],
      online: t("online"),
      locked: t("locked"),
      // Visitors may report a member shown here (a plain link to /report, decision 173).
      report: t("report"),
      // The "near you" wording; a visual heads a list with it only when that list is near (nearList), else with `online`.
      near: place ? t("nearPlace", { place }) : t("nearYou"),
      you: t("you"),
      reel: t("reel"),
      upNext: t("upNext"),
      play: t("play"),
      like: t("like"),
      pass: t("pass"),
      comment: t("comment"),
      swipeHint: t("swipeHint"),
      doneTitle: t("doneTitle"),
      doneText: t("doneText"),
      reply: t("reply"),
      steps: ([1, 2, 3] as const).map((n) => ({ title: t(`steps.s${n}`), text: t(`steps.t${n}`) })),
    },
    members: members.map((m) => toLanderMember(m, country)),
    signup: signupCopy(brand, await getFixedT(lng, "pages", copyOf(brand)), form.state),
    form,
  };
}
export type LanderData = Awaited<ReturnType<typeof loadLander>>;
