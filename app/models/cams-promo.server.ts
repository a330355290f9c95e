/**
 * The cams promo block (docs/product/screens.md §2, decision 160): a partner webcam site's block in the members
 * area, between search results and on the chats overview. Every rule of it is here: whether a page
 * shows it, where a click goes, and the per-brand click count.
 */
import { sql } from "drizzle-orm";
import { isbot } from "isbot";
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { getDb, schema } from "../../db/client";
import { NICHES } from "~/lib/constants";
import { nicheOf, type Brand } from "./brand.server";

export const CAMS_PLACEMENTS = ["search", "chats"] as const;
export type CamsPlacement = (typeof CAMS_PLACEMENTS)[number];

const NICHE_NAMES = Object.values(NICHES) as [string, ...string[]];

/** A brand's settings as stored (brands.cams_promo); anything that does not parse counts as off. */
export const camsPromoSettings = lazy(() =>
  z.object({
    // Only an https URL on the partner's host; the member's browser is sent nowhere else.
    url: z
      .string()
      .url()
      .max(500)
      .refine((u) => new URL(u).protocol === "https:", "https only"),
    params: z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/), z.string().max(200)).default({}),
    placements: z.array(z.enum(CAMS_PLACEMENTS)).default([...CAMS_PLACEMENTS]),
    excludedNiches: z.array(z.enum(NICHE_NAMES)).default([]),
    excludedCountries: z.array(z.string().regex(/^[A-Z]{2}$/)).default([]),
  }),
);
export type CamsPromoSettings = z.infer<ReturnType<typeof camsPromoSettings>>;

type PromoBrand = Pick<Brand, "camsPromoEnabled" | "camsPromo" | "niche">;

export function camsPromoOf(brand: PromoBrand): CamsPromoSettings | null {
  if (!brand.camsPromoEnabled || !brand.camsPromo) return null;
  const parsed = camsPromoSettings().safeParse(brand.camsPromo);
  return parsed.success ? parsed.data : null;
}

/**
 * Whether a page shows the block: a logged-in member (never a visitor), the brand has it on for this
 * placement, and neither the brand's niche nor the member's country (where they are, or their
 * profile's) is excluded.
 */
export function camsPromoShown(
  brand: PromoBrand,
  where: { member: { country: string } | null; country: string; placement: CamsPlacement },
): boolean {
  const promo = camsPromoOf(brand);
  if (!promo || !where.member || !promo.placements.includes(where.placement)) return false;
  if (promo.excludedNiches.includes(nicheOf(brand))) return false;
  return !promo.excludedCountries.includes(where.country) && !promo.excludedCountries.includes(where.member.country);
}

/** The partner URL with the brand's tracking parameters (they replace any of the same name). */
export function camsPromoTarget(promo: CamsPromoSettings): string {
  const url = new URL(promo.url);
  for (const [k, v] of Object.entries(promo.params)) url.searchParams.set(k, v);
  return url.toString();
}

/** One click more for the brand, the UTC day and the placement (an upsert: one row a day). */
export async function countCamsClick(db: D1Database, brandId: number, placement: CamsPlacement, now = new Date()) {
  const t = schema.camsPromoClicks;
  await getDb(db)
    .insert(t)
    .values({ brandId, day: now.toISOString().slice(0, 10), placement, clicks: 1 })
    .onConflictDoUpdate({ target: [t.brandId, t.day, t.placement], set: { clicks: sql`${t.clicks} + 1` } });
}

/**
 * A member's click: where it goes (null when this member is not shown the block: nothing counted).
 * Clicks of a crawler's user agent are sent on but not counted.
 */
export async function camsPromoClick(
  db: D1Database,
  brand: PromoBrand & Pick<Brand, "id">,
  click: { member: { country: string }; country: string; placement: CamsPlacement; userAgent: string },
  now = new Date(),
): Promise<string | null> {
  if (!camsPromoShown(brand, click)) return null;
  if (!isbot(click.userAgent)) await countCamsClick(db, brand.id, click.placement, now);
  return camsPromoTarget(camsPromoOf(brand)!);
}
