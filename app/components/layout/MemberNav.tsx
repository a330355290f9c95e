/**
 * The members' navigation (docs/product/screens.md §2). Its own module: the browser loads it only for members
 * (member-chrome.ts), so a visitor of the landing page never downloads it (docs/architecture/budgets.md §6).
 */
import { Form, Link, useLocation } from "@remix-run/react";
import { navSection } from "~/lib/nav";
import { useTranslation } from "~/lib/i18n-react";
import type { RootData } from "~/lib/root-data";
import { countBadge, creditBadge } from "~/lib/badges";
import { Icon, type IconName } from "../Icon";

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

function NavItem({
  to,
  icon,
  label,
  active,
  children,
}: {
  to: string;
  icon: IconName;
  label: string;
  active: boolean;
  children?: React.ReactNode;
}) {
  return (
    <Link to={to} className="topnav-item" prefetch="intent" aria-current={active ? "page" : undefined}>
      <Icon name={icon} />
      <span className="topnav-label">{label}</span>
      {children}
    </Link>
  );
}

/** docs/product/screens.md §2: search, messages (99+ cap), likes, credits for paid users or Get Premium, account menu. */
export function MemberNav({ m }: { m: Member }) {
  const { t } = useTranslation();
  const credit = m.paidUser ? creditBadge(m.credits) : null;
  const section = navSection(useLocation().pathname);
  return (
    <nav className="topnav member-nav" aria-label={t("nav.main")}>
      <NavItem to="/members" icon="search" label={t("nav.search")} active={section === "search"} />
      <NavItem to="/chats" icon="chat" label={t("nav.messages")} active={section === "messages"}>
        <Badge
          name="messages"
          text={countBadge(m.unreadMessages)}
          tone="unread"
          label={t("nav.unread", { count: m.unreadMessages })}
        />
      </NavItem>
      <NavItem to="/likes" icon="heart" label={t("nav.likes")} active={section === "likes"}>
        <Badge
          name="likes"
          text={countBadge(m.newLikes)}
          tone="primary"
          label={t("nav.newLikes", { count: m.newLikes })}
        />
      </NavItem>
      {/* The swipe game is a main item, not hidden in the account menu (decision 180). */}
      <NavItem to="/swipe-game" icon="flame" label={t("nav.swipe")} active={section === "swipe"} />
      {m.paidUser ? (
        <NavItem to="/credits" icon="coin" label={t("nav.credits")} active={section === "credits"}>
          {credit ? (
            <Badge
              name="credits"
              text={credit.text}
              tone={credit.tone}
              label={t("nav.creditsLeft", { count: m.credits })}
            />
          ) : null}
        </NavItem>
      ) : (
        <Link to="/premium" className="topnav-item nav-premium" data-testid="get-premium">
          <span className="topnav-icon">
            <Icon name="star" size={18} />
          </span>
          <span className="topnav-label">{t("nav.getPremium")}</span>
        </Link>
      )}
      <details className="dropdown account-menu">
        <summary className="topnav-item">
          <span className="avatar-initial" aria-hidden="true">
            {m.name.slice(0, 1).toUpperCase()}
          </span>
          <span className="topnav-label account-name">{m.name}</span>
          <span className="visually-hidden">{t("nav.account")}</span>
        </summary>
        <div className="dropdown-menu dropdown-menu-end">
          <Link to="/match-finder" className="dropdown-item">
            <Icon name="users" size={18} />
            {t("nav.matchFinder")}
          </Link>
          <div className="dropdown-divider" role="separator" />
          <Link to="/profile" className="dropdown-item">
            <Icon name="user" size={18} />
            {t("nav.myProfile")}
          </Link>
          <Link to="/settings" className="dropdown-item">
            <Icon name="settings" size={18} />
            {t("nav.settings")}
          </Link>
          <div className="dropdown-divider" role="separator" />
          <Form method="post" action="/api/logout.php">
            <input type="hidden" name="redirectTo" value="/" />
            <button type="submit" className="dropdown-item">
              <Icon name="logout" size={18} />
              {t("nav.logout")}
            </button>
          </Form>
        </div>
      </details>
    </nav>
  );
}
