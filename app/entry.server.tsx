import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { newI18nInstance, resolveLanguage } from "./lib/i18n.server";
import { NonceContext } from "./lib/nonce";
import type { Language } from "./lib/constants";

export const streamTimeout = 5000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const root = remixContext.staticHandlerContext.loaderData.root as { lang?: Language } | undefined;
  const lng = root?.lang ?? (await resolveLanguage(request.headers.get("Cookie"), null));
  const i18n = await newI18nInstance(lng);
  const nonce = loadContext.nonce;

  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <I18nextProvider i18n={i18n}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} abortDelay={streamTimeout} />
      </I18nextProvider>
    </NonceContext.Provider>,
    {
      nonce,
      signal: request.signal,
      onError(error: unknown) {
        responseStatusCode = 500;
        console.error(error);
      },
    },
  );
  // Crawlers and no-JS clients get the whole document at once.
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Content-Language", lng);
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
