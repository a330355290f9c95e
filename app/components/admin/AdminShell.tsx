/** The console's frame: top bar with the parts the operator's role opens, and who is logged in. English only (decision 167). */
import { NavLink } from "@remix-run/react";

export type ShellOperator = { name: string; email: string; role: string; areas: string[] };

const NAV: { area: string; to: string; label: string }[] = [
  { area: "inbox", to: "/admin/inbox", label: "Inbox" },
  { area: "inbox", to: "/admin/team-profiles", label: "Team-run profiles" },
  { area: "members", to: "/admin/members", label: "Members" },
  { area: "reports", to: "/admin/reports", label: "Reports" },
  { area: "photos", to: "/admin/photos", label: "Photos" },
  { area: "appeals", to: "/admin/appeals", label: "Appeals" },
  { area: "transparency", to: "/admin/transparency", label: "Transparency" },
  { area: "payments", to: "/admin/payments", label: "Payments" },
  { area: "codes", to: "/admin/codes", label: "Codes" },
  { area: "packages", to: "/admin/packages", label: "Packages" },
  { area: "brands", to: "/admin/brands", label: "Brands" },
  { area: "campaigns", to: "/admin/campaigns", label: "Campaigns" },
  { area: "audit", to: "/admin/audit", label: "Audit log" },
  { area: "operators", to: "/admin/operators", label: "Operators" },
  { area: "approvals", to: "/admin/approvals", label: "Approvals" },
];

/** What an admin is told on every page (decision 216, 217): staff logins locked out today, requests waiting. */
export type ShellNotices = { lockouts: { at: number; email: string | null }[]; approvals: number };

export function AdminShell({
  operator,
  children,
  live,
  notices,
}: {
  operator: ShellOperator;
  children: React.ReactNode;
  live: string[];
  notices?: ShellNotices | null;
}) {
  return (
    <>
      <header className="a-top">
        <NavLink to="/admin" end className="a-brand">
          Console
        </NavLink>
        <nav className="a-nav" aria-label="Console">
          {NAV.filter((n) => operator.areas.includes(n.area) && live.includes(n.area)).map((n) => (
            <NavLink key={n.to} to={n.to} reloadDocument>
              {n.label}
            </NavLink>
          ))}
        </nav>
        <div className="a-who">
          <span>
            {operator.name} · {operator.role}
          </span>
          <form method="post" action="/admin/logout" className="a-inline">
            <button type="submit">Log out</button>
          </form>
        </div>
      </header>
      <div className="a-main">
        {notices?.lockouts.length ? (
          <p className="a-error" role="alert">
            Staff login locked out in the last 24 hours:{" "}
            {notices.lockouts
              .map((l) => `${l.email ?? "?"} (${new Date(l.at * 1000).toISOString().slice(11, 16)} UTC)`)
              .join(", ")}
            . <a href="/admin/audit?action=operator.lockout">See the audit log</a>
          </p>
        ) : null}
        {notices?.approvals ? (
          <p className="a-warn" role="status">
            {notices.approvals === 1 ? "1 request waits" : `${notices.approvals} requests wait`} for a second admin.{" "}
            <a href="/admin/approvals">Approvals</a>
          </p>
        ) : null}
        {children}
      </div>
    </>
  );
}

export function AdminError({ status, message }: { status: number; message: string }) {
  return (
    <div className="a-main">
      <div className="a-card a-narrow">
        <h1>{status === 403 ? "Not allowed" : status === 404 ? "Not found" : "Something went wrong"}</h1>
        <p>{message || (status === 403 ? "Your role does not open this page." : "Please try again.")}</p>
        <p>
          <a href="/admin">Back to the console</a>
        </p>
      </div>
    </div>
  );
}
