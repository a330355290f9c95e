import { useTranslation } from "~/lib/i18n-react";

type Worth = { credits: number; money: string | null };
export type CreditWorthData = { message: Worth; gift: Worth; photo: Worth };

/** What credits buy in the member's country, in credits and money (/credits and /premium, decision 179). */
export function CreditWorth({ worth, country }: { worth: CreditWorthData; country: string | null }) {
  const { t } = useTranslation("shop");
  return (
    <section className="page-section credit-worth" data-testid="credit-worth">
      <h2>{country ? t("worth.titleIn", { country }) : t("worth.title")}</h2>
      <ul className="cost-list">
        {(["message", "gift", "photo"] as const).map((k) => (
          <li key={k} data-testid={`worth-${k}`}>
            <span>{t(`worth.${k}`)}</span> <strong>{t("package.credits", { count: worth[k].credits })}</strong>
            {worth[k].money ? (
              <span className="credit-worth-money"> ({t("worth.about", { money: worth[k].money })})</span>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="credit-worth-note">{t("worth.note")}</p>
    </section>
  );
}
