import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import type { RootData } from "~/lib/root-data";
import { LanguageMenu } from "../LanguageMenu";
import { BackButton } from "../BackButton";
import { MemberNav } from "./member-chrome";

function BrandLink({ root }: { root: RootData }) {
  return (
    <Link to={root.member ? "/members" : "/"} className="brand" aria-label={root.brand.name}>
      <span className="brand-mark" aria-hidden="true">
        ♥
      </span>
      <span className="brand-name">{root.brand.name}</span>
    </Link>
  );
}

/** The lander layout's simple brand bar. */
export function BrandBar({ root }: { root: RootData }) {
  return (
    <header className="topbar topbar-simple">
      <div className="container topbar-inner">
        <BrandLink root={root} />
        <LanguageMenu current={root.lang} />
      </div>
    </header>
  );
}

export function TopBar({ root, compact = false }: { root: RootData; compact?: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  const m = root.member;
  const redirectTo = location.pathname + location.search;
  return (
    <header className={`topbar${compact ? " topbar-compact" : ""}${m ? "" : " topbar-visitor"}`}>
      <a className="skip-link" href="#main">
        {t("nav.skip")}
      </a>
      <div className="container topbar-inner">
        <BackButton />
        <BrandLink root={root} />
        {m ? <MemberNav m={m} /> : null}
        <div className={`topbar-actions${m ? "" : " visitor-actions"}`}>
          <LanguageMenu current={root.lang} redirectTo={redirectTo} />
          {m ? null : (
            <>
              <Link
                to={redirectTo === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(redirectTo)}`}
                className="btn btn-outline btn-sm"
                data-testid="login-button"
              >
                {t("nav.login")}
              </Link>
              {/* Only where this visitor can sign up (docs/product/roles.md §6): never a button to a closed door. */}
              {root.signup?.state === "open" ? (
                <Link to="/signup" className="btn btn-primary btn-sm signup-button">
                  {t("nav.signupShort")}
                </Link>
              ) : null}
            </>
          )}
        </div>
      </div>
    </header>
  );
}
