/**
 * What the chat's composer shows beside the box (decision 179): the cost of a message in
 * credits and in money, and the text typed before buying credits from this chat (the checkout's
 * return cookie, read once: the answer clears it).
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { BrandWithCompany } from "~/models/brand.server";
import { pricesFor } from "~/models/credits.server";
import { creditWorthFor } from "~/models/shop.server";
import { clearChatReturnCookie, readChatReturn } from "~/lib/chat-return.server";
import type { Language } from "~/lib/constants";

export async function composerData(
  request: Request,
  context: AppLoadContext,
  // `also`: the other path of the same chat (the first message's page, before the conversation existed);
  // a promise when the page is still looking the conversation up, so the prices are read beside it.
  o: {
    brand: BrandWithCompany;
    country: string | null;
    lng: Language;
    path: string;
    also?: Promise<string | undefined>;
  },
) {
  const prices = pricesFor(o.brand, o.country);
  const worth = await creditWorthFor(context, o.lng, o.brand, prices);
  const back = readChatReturn(request);
  const also = await o.also;
  const mine = !!back && (back.path === o.path || back.path === also);
  return {
    composer: {
      cost: prices.message,
      costWorth: worth.message.money,
      giftCredits: prices.gift,
      messageLength: o.brand.messageLength,
      draft: mine ? back!.draft : null,
      returnTo: o.path,
    },
    headers: mine ? { "Set-Cookie": clearChatReturnCookie } : undefined,
  };
}
