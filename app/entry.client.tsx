import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nProvider, type I18nStore } from "./lib/i18n-react";
import { installChunkReloadGuard } from "./lib/chunk-reload";
import { preloadMemberChrome } from "./components/layout/member-chrome";

installChunkReloadGuard();

const lng = document.documentElement.lang || "en";
/**
 * Hydration waits for the page's strings: a request that failed or hung would leave the page without
 * its JavaScript for good, so each try gives up after 8 s and a failure is tried twice more. If all
 * fail, the server-rendered page stays as it is (it works without JavaScript).
 */
const fetchJson = (url: string, tries = 3): Promise<unknown> =>
  fetch(url, { signal: AbortSignal.timeout(8000) })
    .then((r) => (r.ok ? r.json() : {}))
    .catch((e) =>
      tries > 1 ? new Promise((ok) => setTimeout(ok, 500)).then(() => fetchJson(url, tries - 1)) : Promise.reject(e),
    );
const pending = new Map<string, Promise<void>>();
const store: I18nStore = {
  lng,
  // The brand's copy (decision 212), as the server rendered it.
  copy: document.documentElement.dataset.copy === "entertainment" ? "entertainment" : null,
  resources: {},
  // Each namespace of the page's language is fetched once, on demand (docs/product/api.md §7).
  load(ns) {
    let p = pending.get(ns);
    if (!p) {
      p = fetchJson(`/locales/${lng}/${ns}`).then(
        (tree) => void (store.resources[ns] = tree as Record<string, unknown>),
      );
      pending.set(ns, p);
    }
    return p;
  },
};

/** The namespaces the server rendered with: those named in the matched routes' handles. */
function initialNamespaces(): string[] {
  const modules =
    (window as unknown as { __remixRouteModules?: Record<string, { handle?: { i18n?: string | string[] } }> })
      .__remixRouteModules ?? {};
  const out = new Set(["common"]);
  for (const m of Object.values(modules)) for (const ns of [m?.handle?.i18n ?? []].flat()) out.add(ns);
  return [...out];
}

/** A member's page: the server rendered the members' chrome (member-chrome.ts), whose chunk must be there to hydrate it. */
const memberPage = () => document.querySelector(".member-nav, .layout-member") !== null;

/**
 * Single fetch: RemixBrowser's first render suspends (throws a promise, with no Suspense boundary above
 * it) until the loaders' data, streamed in the page's last scripts, is decoded. Input in the moment
 * between hydrateRoot and that render makes React hydrate the root synchronously, and a root that
 * suspends then fails (React error 345: the page never hydrates; decision 192). Called once here, it starts
 * the decoding and throws the same promise: hydrating after it, no render of the root suspends.
 */
let loaderData: unknown;
try {
  (RemixBrowser as (props: object) => unknown)({});
} catch (decoding) {
  loaderData = decoding;
}

Promise.all([
  ...initialNamespaces().map((ns) => store.load!(ns)),
  memberPage() ? preloadMemberChrome() : null,
  loaderData,
]).then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nProvider value={store}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nProvider>,
    );
  });
});
