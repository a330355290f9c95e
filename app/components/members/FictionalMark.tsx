import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import type { RootData } from "~/lib/root-data";
import { fictionalLabel } from "~/lib/fictional";
import { Icon } from "../Icon";

/**
 * The mark of a team-run (fictional) profile wherever a member meets one (decision 179):
 * an inline SVG (an emoji is an empty box where no colour-emoji font exists) and the one plain term
 * (decision 202), with the full text one tap away in a <details>, which opens without JavaScript.
 */
function useFictionalLabel() {
  const root = useRouteLoaderData<RootData>("root");
  const { t } = useTranslation("common");
  const f = root?.brand.fictional;
  const label = f ? fictionalLabel(f, root.lang, t("fictional.label")) : t("fictional.label");
  return { t, icon: <Icon name="users" size={16} />, label };
}

export function FictionalMark({ className = "" }: { className?: string }) {
  const { t, icon, label } = useFictionalLabel();
  return (
    <details className={`fictional-mark ${className}`.trim()} data-testid="fictional-mark">
      <summary>
        {icon} {label}
      </summary>
      <p>{t("fictional.warning")}</p>
    </details>
  );
}

/** The mark inside a link (the conversation list): icon and name; the full text is in the chat it opens. */
export function FictionalTag() {
  const { t, icon, label } = useFictionalLabel();
  return (
    <span className="fictional-tag" title={t("fictional.warning")} data-testid="fictional-tag">
      {icon} {label}
    </span>
  );
}

/** Under a team-run profile's name on its own page: the term and what it means, in text (decision 202). */
export function FictionalLabel() {
  const { t, icon, label } = useFictionalLabel();
  return (
    <p className="fictional-label" data-testid="fictional-label">
      {icon} {t("fictional.profileLabel", { label })}
    </p>
  );
}
