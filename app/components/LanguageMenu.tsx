import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { LANGUAGES } from "~/lib/constants";
import { LANGUAGE_NAMES } from "~/lib/i18n";
import { Icon } from "./Icon";

/** The header's language dropdown: a plain form per language, so it works without JavaScript. */
export function LanguageMenu({ current, redirectTo }: { current: string; redirectTo?: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const back = redirectTo ?? location.pathname + location.search;
  return (
    <details className="dropdown language-menu">
      {/* Named by its content, "EN Language": an aria-label would hide the visible code from voice
          control (WCAG 2.5.3, label in name). */}
      <summary className="topnav-item">
        <Icon name="globe" />
        <span className="lang-code">{current.toUpperCase()}</span>{" "}
        <span className="visually-hidden">{t("nav.language")}</span>
      </summary>
      <Form method="post" action="/lang-config" className="dropdown-menu dropdown-menu-end" reloadDocument>
        <input type="hidden" name="redirectTo" value={back} />
        {[...LANGUAGES].sort().map((lng) => (
          <button
            key={lng}
            type="submit"
            name="lng"
            value={lng}
            lang={lng}
            className={`dropdown-item${lng === current ? " active" : ""}`}
            aria-current={lng === current ? "true" : undefined}
          >
            {LANGUAGE_NAMES[lng]}
          </button>
        ))}
      </Form>
    </details>
  );
}
