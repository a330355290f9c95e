import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useTranslation } from "./lib/i18n-react";
import { AppShell } from "./components/layout/AppShell";
import { ErrorPage, ErrorPageGuard } from "./components/ErrorPage";
import { getBrandByHost } from "./models/brand.server";
import { getMember } from "./models/session.server";
import { resolveLanguage } from "./lib/i18n.server";
import { readCookie } from "./lib/cookies.server";
import { resolveCountry } from "./lib/request.server";
import { SITE_ENTRY_COOKIE } from "./lib/site-entry";
import { useNonce } from "./lib/nonce";
import { isDeployed } from "./lib/env";
import { publicBrand, publicMember, welcomeOfferAtLoad, type RootData } from "./lib/root-data";
import { pageTitle } from "./lib/page-title";
import { memberPrompts } from "./lib/member-prompts.server";
import { signupContext } from "./models/tracking.server";
import styles from "./styles/app.css";
import adminStyles from "./styles/admin.css";
import { isAdminPath } from "./lib/admin-path";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export async function loader({ request, context }: LoaderFunctionArgs): Promise<RootData> {
  const brand = await getBrandByHost(context.env, request.headers.get("Host"));
  // The console never reads a member session: it is no member page (decision 167).
  if (isAdminPath(new URL(request.url).pathname)) {
    return {
      lang: "en",
      country: "",
      brand: publicBrand(brand),
      member: null,
      welcomeOffer: null,
      prompts: [],
      siteEntrySkipped: true,
      signup: null,
      dev: !isDeployed(context.env),
      admin: adminStyles,
    };
  }
  const [lang, member] = await Promise.all([
    resolveLanguage(request, brand.domainLanguage),
    getMember(request, context),
  ]);
  // Age assurance (decisions 185, 197): getMember above already sent a gated page without a proof
  // of 18+ to /age-check, as it does for every loader, action, API call and socket.
  const country = resolveCountry(request, context);
  const pub = member && publicMember(member);
  const welcomeOffer = welcomeOfferAtLoad(member, brand.welcomeDiscountS);
  return {
    lang,
    country,
    brand: publicBrand(brand),
    member: pub,
    welcomeOffer,
    // One member prompt at a time, chosen here (decision 179).
    prompts: pub ? memberPrompts(pub, welcomeOffer !== null) : [],
    siteEntrySkipped: readCookie(request, SITE_ENTRY_COOKIE) !== null,
    // One decision per request for every sign-up form and the header's button (docs/product/roles.md §6).
    signup: member ? null : signupContext(request, brand.signups),
    dev: !isDeployed(context.env),
  };
}

const SW_REGISTRATION = `"serviceWorker"in navigator&&addEventListener("load",function(){navigator.serviceWorker.register("/sw.js").catch(function(){})})`;

// "account": the activation reminder and the sign-up modal are part of the chrome on every page.
export const handle = { i18n: ["common", "account"] };

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

/**
 * A route's loader may return `title` (see pageTitle); an error page is titled by its own
 * translated message, so a 404 says so in the visitor's language.
 */
function useDocumentTitle(root: RootData | undefined) {
  const matches = useMatches();
  const error = useRouteError();
  const { t } = useTranslation();
  const leaf = [...matches].reverse().find((m) => (m.data as { title?: string } | undefined)?.title);
  const title = error
    ? isRouteErrorResponse(error) && error.status === 404
      ? t("error.notFound")
      : t("error.default")
    : (leaf?.data as { title?: string } | undefined)?.title;
  const unread = root?.member ? root.member.unreadMessages + root.member.newLikes : 0;
  return pageTitle({ title, brandName: root?.brand.name ?? "", indexTitle: root?.brand.indexTitle ?? "", unread });
}

/**
 * A page that must stay current without JavaScript (the console's inbox) names a reload interval in its
 * handle; the refresh sits inside <noscript>, so a browser that runs the page's live script never reloads.
 */
function RefreshWithoutScript() {
  const seconds = useMatches()
    .map((m) => (m.handle as { refreshWithoutScript?: number } | undefined)?.refreshWithoutScript)
    .findLast((s) => typeof s === "number");
  if (!seconds) return null;
  return (
    <noscript>
      <meta httpEquiv="refresh" content={String(seconds)} />
    </noscript>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const nonce = useNonce();
  const { i18n } = useTranslation();
  const lang = root?.lang ?? i18n.language ?? "en";
  const title = useDocumentTitle(root);
  return (
    <html lang={lang} dir="ltr" data-copy={root?.brand.copy ?? undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#c8102e" />
        <title>{title}</title>
        <Meta />
        <RefreshWithoutScript />
        {root?.admin ? <link rel="stylesheet" href={root.admin} /> : <Links />}
      </head>
      <body>
        {children}
        {/* The console (root.admin) ships no JavaScript. The service worker (public/sw.js: push, offline page) is registered once JavaScript runs; inline so it adds nothing to any bundle. */}
        {root?.admin ? null : (
          <>
            <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SW_REGISTRATION }} />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  const root = useRootData()!;
  return (
    <AppShell root={root}>
      <Outlet />
    </AppShell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error)
    ? typeof error.data === "string" && error.data
      ? error.data
      : error.statusText
    : "";
  const root = useRootData();
  const page = <ErrorPage status={status} message={message} />;
  return <ErrorPageGuard>{root ? <AppShell root={root}>{page}</AppShell> : page}</ErrorPageGuard>;
}
