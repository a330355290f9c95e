/**
 * What things cost in credits (pricesFor: the one owner of prices).
 *
 * Balances and ledgers are not here: they are the member's wallet (app/wallet/, decisions 189 and
 * 229), which every grant, charge, refund and read goes through; D1's users.credits is its copy.
 */
import type { Brand } from "./brand.server";

export type PriceSettings = Pick<Brand, "minimumMessageCosts" | "messageCredits" | "giftCredits" | "photoCredits">;
export interface Prices {
  message: number;
  gift: number;
  photo: number;
}

/**
 * What a thing costs in credits on a brand for a member in `country` (docs/product/data.md §3 and docs/product/limits.md §9): a
 * message costs minimum_message_costs[country].costs when that is a whole number >= 0, else the
 * brand's message_credits; a gift gift_credits, a photo photo_credits. The one owner of prices:
 * the chat binds its result into the charge, the pages show it.
 */
export function pricesFor(brand: PriceSettings, country: string | null | undefined): Prices {
  const c = country ? brand.minimumMessageCosts?.[country.toUpperCase()]?.costs : undefined;
  return {
    message: Number.isInteger(c) && c! >= 0 ? c! : brand.messageCredits,
    gift: brand.giftCredits,
    photo: brand.photoCredits,
  };
}
