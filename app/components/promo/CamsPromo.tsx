import { useTranslation } from "~/lib/i18n-react";

/**
 * The cams promo block (docs/product/screens.md §2, decision 160): a picture, a headline and a button. The
 * button posts to /promo/cams, which counts the click and sends the member on to the partner in a
 * new tab (the page's Cross-Origin-Opener-Policy leaves that tab no handle on this one). The page
 * decides whether to show it (camsPromoShown); the partner URL never reaches the browser.
 */
export function CamsPromo({ placement }: { placement: "search" | "chats" }) {
  const { t } = useTranslation("offers");
  return (
    <aside className="cams-promo" aria-labelledby={`cams-promo-${placement}`} data-testid="cams-promo">
      <img
        className="cams-promo-img"
        src="/promo/cams.svg"
        alt=""
        width={320}
        height={200}
        loading="lazy"
        decoding="async"
      />
      <div className="cams-promo-body">
        <span className="cams-promo-ad">{t("cams.ad")}</span>
        <h2 id={`cams-promo-${placement}`}>{t("cams.headline")}</h2>
        <p>{t("cams.text")}</p>
        <form method="post" action="/promo/cams" target="_blank">
          <input type="hidden" name="placement" value={placement} />
          <button type="submit" className="btn btn-primary">
            {t("cams.button")}
          </button>
        </form>
      </div>
    </aside>
  );
}
