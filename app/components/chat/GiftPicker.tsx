import { Icon } from "../Icon";
import type { TFunction } from "~/lib/i18n-react";
import { useTranslation } from "~/lib/i18n-react";
import { GIFTS, giftById } from "~/chat/gifts";

export function giftLabel(giftId: string | null, t: TFunction, dir: "sent" | "received", name: string) {
  const gift = giftById(giftId);
  const text = gift ? `${gift.emoji} ${t(`gifts.${gift.id}`)}` : "🎁";
  return t(`gifts.${dir}`, { gift: text, name });
}

/** The gift catalogue: submit buttons of the send form (a <details> opens it, no JavaScript needed). */
export function GiftPicker({ cost }: { cost: number }) {
  const { t } = useTranslation("chat");
  return (
    <details className="chat-gifts">
      <summary className="btn btn-light" title={t("gifts.title")}><Icon name="gift" size={18} /> <span className="chat-tool-label">{t("gifts.title")}</span></summary>
      <div className="chat-gifts-grid" role="group" aria-label={t("gifts.title")}>
        {GIFTS.map((g) => (
          <button key={g.id} type="submit" name="giftId" value={g.id} className="chat-gift-btn">
            <span className="chat-gift-emoji" aria-hidden="true">{g.emoji}</span>
            <span>{t(`gifts.${g.id}`)}</span>
            <small>{t("gifts.cost", { count: cost })}</small>
          </button>
        ))}
      </div>
    </details>
  );
}
