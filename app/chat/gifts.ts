/** The gift catalogue: a gift is a message of kind "gift" costing the brand's gift_credits. Names: chat.json gifts.<id>. */
export const GIFTS = [
  { id: "rose", emoji: "🌹" },
  { id: "heart", emoji: "❤️" },
  { id: "kiss", emoji: "💋" },
  { id: "champagne", emoji: "🍾" },
  { id: "chocolate", emoji: "🍫" },
  { id: "teddy", emoji: "🧸" },
  { id: "cocktail", emoji: "🍸" },
  { id: "diamond", emoji: "💎" },
] as const;

export type GiftId = (typeof GIFTS)[number]["id"];

export function giftById(id: string | null | undefined) {
  return GIFTS.find((g) => g.id === id) ?? null;
}

/** Opening lines offered in the icebreaker modal: chat.json icebreakers.<n>. */
export const ICEBREAKER_COUNT = 6;
