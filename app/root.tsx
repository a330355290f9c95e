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
import { readCookie, resolveCountry } from "./lib/request.server";
import { SITE_ENTRY_COOKIE, type LayoutName } from "./lib/site-entry";
import { useNonce } from "./lib/nonce";
import { isProduction } from "./lib/env";
import { publicBrand, publicMember, timeBonusAtLoad } from "./lib/root-data";
import styles from "./styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const brand = await getBrandByHost(context.env, request.headers.get("Host"));
  const [lang, member] = await Promise.all([
    resolveLanguage(request.headers.get("Cookie"), brand.domainLanguage),
    getMember(request, context),
  ]);
  return {
    lang,
    country: resolveCountry(request, context),
    brand: publicBrand(brand),
    member: member && publicMember(member),
    timeBonus: timeBonusAtLoad(member),
    siteEntrySkipped: readCookie(request, SITE_ENTRY_COOKIE) !== null,
    dev: !isProduction(context.env),
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;
// "account": the activation reminder and the sign-up modal are part of the chrome on every page.
export const handle = { i18n: ["common", "account"] };

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

/** A route's loader may return `title`; the root prefixes the unread count (SPEC section 2). */
function useDocumentTitle(root: RootData | undefined) {
  const matches = useMatches();
  const leaf = [...matches].reverse().find((m) => (m.data as { title?: string } | undefined)?.title);
  const title = (leaf?.data as { title?: string } | undefined)?.title ?? root?.brand.indexTitle ?? "";
  const count = root?.member ? root.member.unreadMessages + root.member.newLikes : 0;
  return count > 0 ? `(${count}) ${title}` : title;
}

export function layoutOf(matches: ReturnType<typeof useMatches>): LayoutName {
  for (const m of [...matches].reverse()) {
    const layout = (m.handle as { layout?: LayoutName } | undefined)?.layout;
    if (layout) return layout;
  }
  return "default";
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const nonce = useNonce();
  const { i18n } = useTranslation();
  const lang = root?.lang ?? i18n.language ?? "en";
  const title = useDocumentTitle(root);
  return (
    <html lang={lang} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#c8102e" />
        <title>{title}</title>
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
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
    ? typeof error.data === "string" && error.data ? error.data : error.statusText
    : "";
  const root = useRootData();
  const page = <ErrorPage status={status} message={message} />;
  return <ErrorPageGuard>{root ? <AppShell root={root}>{page}</AppShell> : page}</ErrorPageGuard>;
}
