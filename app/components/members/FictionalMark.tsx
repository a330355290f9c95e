import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import type { RootData } from "~/lib/root-data";
import { fictionalIcon, fictionalLabel } from "~/lib/fictional";

/**
 * The mark of a team-run (fictional) profile wherever a member meets one (decision 179):
 * the brand's icon and name for such profiles, and the full text one tap away in a <details>, which
 * opens without JavaScript. The brand's own name is used on pages in the brand's language; other
 * languages get the translated one.
 */
function useFictionalLabel() {
  const root = useRouteLoaderData<RootData>("root");
  const { t } = useTranslation("common");
  const f = root?.brand.fictional;
  const label = f ? fictionalLabel(f, root.lang, t("fictional.label")) : t("fictional.label");
  return { t, icon: fictionalIcon(f?.icon), label };
}

export function FictionalMark({ className = "" }: { className?: string }) {
  const { t, icon, label } = useFictionalLabel();
  return (
    <details className={`fictional-mark ${className}`.trim()} data-testid="fictional-mark">
      <summary>
        <span aria-hidden="true">{icon}</span> {label}
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
      <span aria-hidden="true">{icon}</span> {label}
    </span>
  );
}
