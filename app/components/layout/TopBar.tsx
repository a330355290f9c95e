import { Form, Link, useLocation } from "@remix-run/react";
import { navSection } from "~/lib/nav";
import { useTranslation } from "~/lib/i18n-react";
import type { RootData } from "~/lib/root-data";
import { countBadge, creditBadge } from "~/lib/badges";
import { Icon, type IconName } from "../Icon";
import { LanguageMenu } from "../LanguageMenu";
import { BackButton } from "../BackButton";

type Member = NonNullable<RootData["member"]>;

/** A count badge; the number is shown, the sentence is read (a bare "99+" means nothing to a screen reader). */
function Badge({ text, tone, label, name }: { text: string | null; tone: string; label: string; name: string }) {
  if (!text) return null;
  return (
    <span className={`badge badge-${tone}`} data-badge={name}>
      <span aria-hidden="true">{text}</span>
      <span className="visually-hidden">{label}</span>
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

function NavItem({ to, icon, label, active, children }: { to: string; icon: IconName; label: string; active: boolean; children?: React.ReactNode }) {
  return (
    <Link to={to} className="topnav-item" prefetch="intent" aria-current={active ? "page" : undefined}>
      <Icon name={icon} />
      <span className="topnav-label">{label}</span>
      {children}
    </Link>
  );
}

/** SPEC section 2: search, messages (99+ cap), likes, credits for paid users or Get Premium, account menu. */
function MemberNav({ m }: { m: Member }) {
  const { t } = useTranslation();
  const credit = m.paidUser ? creditBadge(m.credits) : null;
  const section = navSection(useLocation().pathname);
  return (
    <nav className="topnav member-nav" aria-label={t("nav.main")}>
      <NavItem to="/members" icon="search" label={t("nav.search")} active={section === "search"} />
      <NavItem to="/chats" icon="chat" label={t("nav.messages")} active={section === "messages"}>
        <Badge name="messages" text={countBadge(m.unreadMessages)} tone="unread" label={t("nav.unread", { count: m.unreadMessages })} />
      </NavItem>
      <NavItem to="/likes" icon="heart" label={t("nav.likes")} active={section === "likes"}>
        <Badge name="likes" text={countBadge(m.newLikes)} tone="primary" label={t("nav.newLikes", { count: m.newLikes })} />
      </NavItem>
      {m.paidUser ? (
        <NavItem to="/credits" icon="coin" label={t("nav.credits")} active={section === "credits"}>
          {credit ? (
            <Badge name="credits" text={credit.text} tone={credit.tone} label={t("nav.creditsLeft", { count: m.credits })} />
          ) : null}
        </NavItem>
      ) : (
        <Link to="/premium" className="topnav-item nav-premium" data-testid="get-premium">
          <span className="topnav-icon"><Icon name="star" size={18} /></span>
          <span className="topnav-label">{t("nav.getPremium")}</span>
        </Link>
      )}
      <details className="dropdown account-menu">
        <summary className="topnav-item">
          <span className="avatar-initial" aria-hidden="true">{m.name.slice(0, 1).toUpperCase()}</span>
          <span className="topnav-label account-name">{m.name}</span>
          <span className="visually-hidden">{t("nav.account")}</span>
        </summary>
        <div className="dropdown-menu dropdown-menu-end">
          <Link to="/swipe-game" className="dropdown-item"><Icon name="flame" size={18} />{t("nav.swipeGame")}</Link>
          <Link to="/match-finder" className="dropdown-item"><Icon name="users" size={18} />{t("nav.matchFinder")}</Link>
          <div className="dropdown-divider" role="separator" />
          <Link to="/profile" className="dropdown-item"><Icon name="user" size={18} />{t("nav.myProfile")}</Link>
          <Link to="/settings" className="dropdown-item"><Icon name="settings" size={18} />{t("nav.settings")}</Link>
          <div className="dropdown-divider" role="separator" />
          <Form method="post" action="/api/logout.php">
            <input type="hidden" name="redirectTo" value="/" />
            <button type="submit" className="dropdown-item"><Icon name="logout" size={18} />{t("nav.logout")}</button>
          </Form>
        </div>
      </details>
    </nav>
  );
}

export function TopBar({ root, compact = false }: { root: RootData; compact?: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  const m = root.member;
  const redirectTo = location.pathname + location.search;
  return (
    <header className={`topbar${compact ? " topbar-compact" : ""}${m ? "" : " topbar-visitor"}`}>
      <a className="skip-link" href="#main">{t("nav.skip")}</a>
      <div className="container topbar-inner">
        <BackButton />
        <BrandLink root={root} />
        {m ? <MemberNav m={m} /> : null}
        <div className={`topbar-actions${m ? "" : " visitor-actions"}`}>
          <LanguageMenu current={root.lang} redirectTo={redirectTo} />
          {m ? null : (
            <>
              <Link to={redirectTo === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(redirectTo)}`} className="btn btn-outline btn-sm" data-testid="login-button">
                {t("nav.login")}
              </Link>
              {/* Only where this visitor can sign up (SPEC section 6): never a button to a closed door. */}
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
