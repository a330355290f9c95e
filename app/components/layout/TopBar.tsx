import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import type { RootData } from "~/root";
import { countBadge, creditBadge } from "~/lib/badges";
import { Icon } from "../Icon";
import { LanguageMenu } from "../LanguageMenu";
import { BackButton } from "../BackButton";

function Badge({ text, tone = "primary", label }: { text: string | null; tone?: string; label: string }) {
  if (!text) return null;
  return (
    <span className={`badge badge-${tone}`} aria-label={label}>
      {text}
    </span>
  );
}

function BrandLink({ root }: { root: RootData }) {
  return (
    <Link to={root.member ? "/members" : "/"} className="brand" aria-label={root.brand.name}>
      <span className="brand-mark" aria-hidden="true">♥</span>
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
  const credit = m?.paidUser ? creditBadge(m.credits) : null;
  const redirectTo = location.pathname + location.search;
  return (
    <header className={`topbar${compact ? " topbar-compact" : ""}`}>
      <a className="skip-link" href="#main">{t("nav.skip")}</a>
      <div className="container topbar-inner">
        <BackButton />
        <BrandLink root={root} />
        <nav className="topnav" aria-label={t("nav.main")}>
          {m ? (
            <>
              <Link to="/members" className="topnav-item">
                <Icon name="search" />
                <span className="topnav-label">{t("nav.search")}</span>
              </Link>
              <Link to="/chats" className="topnav-item">
                <Icon name="chat" />
                <span className="topnav-label">{t("nav.messages")}</span>
                <Badge text={countBadge(m.unreadMessages)} tone="unread" label={t("nav.unread", { count: m.unreadMessages })} />
              </Link>
              <Link to="/likes" className="topnav-item">
                <Icon name="heart" />
                <span className="topnav-label">{t("nav.likes")}</span>
                <Badge text={countBadge(m.newLikes)} label={t("nav.newLikes", { count: m.newLikes })} />
              </Link>
              {m.paidUser ? (
                <Link to="/credits" className="topnav-item" data-testid="credits-entry">
                  <Icon name="coin" />
                  <span className="topnav-label">{t("nav.credits")}</span>
                  {credit ? <Badge text={credit.text} tone={credit.tone} label={t("nav.creditsLeft", { count: m.credits })} /> : null}
                </Link>
              ) : (
                <Link to="/premium" className="btn btn-premium btn-sm">
                  <Icon name="star" size={16} />
                  {t("nav.getPremium")}
                </Link>
              )}
              <details className="dropdown account-menu">
                <summary className="topnav-item" aria-label={t("nav.account")}>
                  <Icon name="user" />
                  <span className="topnav-label">{m.name}</span>
                </summary>
                <div className="dropdown-menu dropdown-menu-end">
                  <Link to="/profile" className="dropdown-item">{t("nav.myProfile")}</Link>
                  <Link to="/settings" className="dropdown-item">{t("nav.settings")}</Link>
                  <Form method="post" action="/api/logout.php">
                    <input type="hidden" name="redirectTo" value="/" />
                    <button type="submit" className="dropdown-item">{t("nav.logout")}</button>
                  </Form>
                </div>
              </details>
              <LanguageMenu current={root.lang} redirectTo={redirectTo} />
            </>
          ) : (
            <>
              <LanguageMenu current={root.lang} redirectTo={redirectTo} />
              <Link to={`/login?redirectTo=${encodeURIComponent(redirectTo)}`} className="btn btn-primary btn-sm">
                {t("nav.login")}
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
