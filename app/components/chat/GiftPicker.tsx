import { Link } from "@remix-run/react";
import { Icon } from "../Icon";
import type { TFunction } from "~/lib/i18n-react";
import { useTranslation } from "~/lib/i18n-react";
import { GIFTS, giftById } from "~/chat/gifts";

export function giftLabel(giftId: string | null, t: TFunction, dir: "sent" | "received", name: string) {
  const gift = giftById(giftId);
  const text = gift ? `${gift.emoji} ${t(`gifts.${gift.id}`)}` : "🎁";
  return t(`gifts.${dir}`, { gift: text, name });
}

/**
 * The gift catalogue: submit buttons of the send form (a <details> opens it, no JavaScript needed).
 * A button only picks the gift (pickGift): GiftConfirm asks before credits are spent.
 */
export function GiftPicker({ cost }: { cost: number }) {
  const { t } = useTranslation("chat");
  return (
    <details className="chat-gifts">
      <summary className="btn btn-light" title={t("gifts.title")}>
        <Icon name="gift" size={18} /> <span className="chat-tool-label">{t("gifts.title")}</span>
      </summary>
      <div className="chat-gifts-grid" role="group" aria-label={t("gifts.title")}>
        {GIFTS.map((g) => (
          <button key={g.id} type="submit" name="pickGift" value={g.id} className="chat-gift-btn">
            <span className="chat-gift-emoji" aria-hidden="true">
              {g.emoji}
            </span>
            <span>{t(`gifts.${g.id}`)}</span>
            <small>{t("gifts.cost", { count: cost })}</small>
          </button>
        ))}
      </div>
    </details>
  );
}

/**
 * "Send 🌹 Rose for 20 credits?": the yes button sends the gift (giftId, in the send form); cancel
 * goes back to the plain room (with JavaScript `onCancel` also forgets the pick kept in the page).
 */
export function GiftConfirm({ giftId, cost, onCancel }: { giftId: string; cost: number; onCancel: () => void }) {
  const { t } = useTranslation("chat");
  const { t: to } = useTranslation("offers");
  const gift = giftById(giftId);
  if (!gift) return null;
  return (
    <div
      className="alert alert-info chat-gift-confirm"
      role="group"
      aria-label={t("gifts.title")}
      data-testid="gift-confirm"
    >
      <p>{to("gift.confirm", { gift: `${gift.emoji} ${t(`gifts.${gift.id}`)}`, count: cost })}</p>
      <span className="chat-gift-confirm-actions">
        <button type="submit" name="giftId" value={gift.id} className="btn btn-primary btn-sm">
          {to("gift.yes")}
        </button>
        <Link to="." replace preventScrollReset className="btn btn-light btn-sm" onClick={onCancel}>
          {to("gift.cancel")}
        </Link>
      </span>
    </div>
  );
}
