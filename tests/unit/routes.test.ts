/**
 * The route tree read from the area folders (remix.config.js, decision 235): no URL a visitor, member,
 * operator or caller uses may disappear when route modules move between folders, and the console's,
 * API's and dev tools' URLs stay in their own folders.
 */
import { describe, expect, it } from "vitest";
import { areaRoutes } from "../../remix.config.js";

/** Every URL of the app (Remix patterns). A new route may be added without listing it; a removed one fails. */
const URLS = [
  "/",
  "/*",
  "/account-deleted",
  "/activate",
  "/activate/done",
  "/activate/error",
  "/activate/resend",
  "/admin",
  "/admin/appeals",
  "/admin/appeals/:id",
  "/admin/approvals",
  "/admin/audit",
  "/admin/brands",
  "/admin/brands/:id",
  "/admin/brands/new",
  "/admin/campaigns",
  "/admin/campaigns/:id",
  "/admin/codes",
  "/admin/evidence/:id",
  "/admin/inbox",
  "/admin/inbox/:id",
  "/admin/inbox/:id/typing",
  "/admin/inbox/figures",
  "/admin/inbox/live",
  "/admin/login",
  "/admin/logout",
  "/admin/members",
  "/admin/members/:id",
  "/admin/operators",
  "/admin/packages",
  "/admin/payments",
  "/admin/payments/:id",
  "/admin/payments/export",
  "/admin/photo/:photoId/:variant",
  "/admin/photos",
  "/admin/reporters/:ref",
  "/admin/reports",
  "/admin/reports/:id",
  "/admin/settlements",
  "/admin/setup",
  "/admin/team-photo/:photoId/:variant",
  "/admin/team-profiles",
  "/admin/team-profiles/:id",
  "/admin/transparency",
  "/admin/transparency/export",
  "/age-check",
  "/age-check/response",
  "/api/admin/campaign",
  "/api/admin/restore",
  "/api/auto-like.php",
  "/api/chat.php",
  "/api/chats.php",
  "/api/companyinfo.php",
  "/api/discountcode.php",
  "/api/geocode.php",
  "/api/interests.php",
  "/api/likes.php",
  "/api/logout.php",
  "/api/mail-events",
  "/api/page-hidden.php",
  "/api/payments/webhook",
  "/api/regions.php",
  "/api/settings.php",
  "/api/site-entry",
  "/api/user.php",
  "/chats",
  "/chats/:id",
  "/complaints",
  "/complete-signup",
  "/credits",
  "/credits/:id/:paymentmethod?",
  "/credits/repeat-order",
  "/dev/age-wallet",
  "/dev/error",
  "/dev/outbox",
  "/dev/sms",
  "/dev/sql",
  "/dev/styleguide",
  "/dev/wallet",
  "/directdebit",
  "/healthz",
  "/landers/:kind/:slug?",
  "/lang-config",
  "/likes",
  "/likes/:type",
  "/likes/m/:id",
  "/locales/:lng/:ns",
  "/login",
  "/mail-change/do",
  "/mail-change/undo",
  "/manifest.webmanifest",
  "/match-finder",
  "/members",
  "/members/:id",
  "/members/:id/chat",
  "/members/:id/landing",
  "/members/:id/landing2/:slug?",
  "/members/:id/landing3/:slug?",
  "/members/:id/signup",
  "/notifications",
  "/offline",
  "/pages/:slug",
  "/pages/ban",
  "/photos/:photoId/:variant",
  "/premium",
  "/pricing",
  "/profile",
  "/profile/photos",
  "/promo/cams",
  "/reactivate",
  "/readyz",
  "/report",
  "/report/review/:token",
  "/reset-password",
  "/reset-password/do",
  "/sandbox/:id",
  "/settings",
  "/settings/data",
  "/settings/delete",
  "/settings/my-data",
  "/settings/statements",
  "/signup",
  "/signup-matches",
  "/signup/confirm",
  "/signup/sent",
  "/statement/:token",
  "/swipe-game",
  "/transactions/:id?",
  "/unsubscribe",
];

type Route = { id: string; file: string; path?: string; parentId?: string };
const manifest = areaRoutes() as Record<string, Route>;

/** The full URL pattern of a route: its own path below its parents'. */
function urlOf(route: Route): string {
  const parts: string[] = [];
  for (let r: Route | undefined = route; r; r = r.parentId ? manifest[r.parentId] : undefined)
    if (r.path) parts.unshift(r.path);
  return `/${parts.join("/")}`;
}

describe("routes in area folders", () => {
  it("keeps every URL", () => {
    const urls = new Set(Object.values(manifest).map(urlOf));
    expect(URLS.filter((url) => !urls.has(url))).toEqual([]);
  });

  it("keeps a route's id its flat name, whatever folder it is in", () => {
    for (const route of Object.values(manifest))
      expect(route.file.replace(/^routes\/[^/]+\//, "routes/").replace(/\.[jt]sx?$/, "")).toBe(route.id);
  });

  it("puts the console's, the API's and the dev tools' routes in their folders", () => {
    const misplaced = Object.values(manifest).filter((route) => {
      const area = /^\/(admin|api|dev)(\/|$)/.exec(urlOf(route))?.[1];
      return area !== undefined && !route.file.startsWith(`routes/${area}/`);
    });
    expect(misplaced.map((route) => route.file)).toEqual([]);
  });

  it("has every console and dev tools route under its area's URL (their modules load by URL prefix, decision 242)", () => {
    const outside = Object.values(manifest).filter((route) => {
      const area = /^routes\/(admin|dev)\//.exec(route.file)?.[1];
      return area !== undefined && !urlOf(route).startsWith(`/${area}`);
    });
    expect(outside.map((route) => route.file)).toEqual([]);
  });
});
