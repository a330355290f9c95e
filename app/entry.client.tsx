import { RemixBrowser } from "@remix-run/react";
import i18next, { type BackendModule } from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { getInitialNamespaces } from "remix-i18next/client";
import { i18nConfig } from "./lib/i18n";
import { installChunkReloadGuard } from "./lib/chunk-reload";

/** Loads a language's namespace from the Worker on demand (SPEC section 7). */
const backend: BackendModule = {
  type: "backend",
  init() {},
  read(lng, ns, callback) {
    fetch(`/locales/${lng}/${ns}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`locale ${lng}/${ns}: ${r.status}`))))
      .then((data) => callback(null, data as Record<string, unknown>), (error) => callback(error, null));
  },
};

installChunkReloadGuard();

async function hydrate() {
  await i18next
    .use(initReactI18next)
    .use(backend)
    .init({ ...i18nConfig, lng: document.documentElement.lang, ns: getInitialNamespaces() });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

hydrate();
