import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { I18nProvider } from "./lib/i18n-react";
import { loadMessages, resolveLanguage, resources } from "./lib/i18n.server";
import { NonceContext } from "./lib/nonce";
import { getBrandByHost } from "./models/brand.server";
import type { Language } from "./lib/constants";
import type { Copy } from "./lib/i18n";
import { closeDocumentLast } from "./lib/html-stream.server";
import { logError, logWarning, refusalOf } from "./lib/log.server";
import { reportError } from "./lib/sentry.server";

export const streamTimeout = 5000;

/** The Worker's own pieces, taken from this build by app/entry.worker.ts (one copy of each: decision 195). */
export * as worker from "./worker.server";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const root = remixContext.staticHandlerContext.loaderData.root as
    | { lang?: Language; brand?: { copy?: Copy } }
    | undefined;
  const lng =
    root?.lang ??
    (await resolveLanguage(
      request,
      (await getBrandByHost(loadContext.env, request.headers.get("Host")).catch(() => null))?.domainLanguage,
    ));
  const nonce = loadContext.nonce;

  // Loaded on the first page rendered, not when the Worker starts (decision 234): requests that render
  // no page (sockets, API, redirects, queues) never evaluate React's server renderer. A CommonJS package,
  // so the split server build (decision 237) hands it over as the module's `default`.
  const [server] = await Promise.all([import("react-dom/server"), loadMessages(lng)]);
  const { renderToReadableStream } = ("default" in server ? server.default : server) as typeof server;
  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <I18nProvider value={{ lng, resources: resources[lng], copy: root?.brand?.copy ?? null }}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} abortDelay={streamTimeout} />
      </I18nProvider>
    </NonceContext.Provider>,
    {
      nonce,
      signal: request.signal,
      onError(error: unknown) {
        responseStatusCode = 500;
        logError("render.failed", error, { requestId: loadContext.requestId, path: new URL(request.url).pathname });
      },
    },
  );
  // Crawlers and no-JS clients get the whole document at once.
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Content-Language", lng);
  return new Response(closeDocumentLast(body), { headers: responseHeaders, status: responseStatusCode });
}

/**
 * A loader or action threw, or Remix refused the request (unknown URL, no action): one log line with
 * the request id; aborted requests are no failure, a 4xx is a warning with its status and reason.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const fields = { requestId: context.requestId, path: new URL(request.url).pathname };
  const refusal = refusalOf(error);
  if (refusal && refusal.status < 500) logWarning("request.refused", { ...fields, ...refusal });
  else {
    logError("request.failed", error, refusal ? { ...fields, status: refusal.status } : fields);
    // A route's failure reaches Sentry too (when configured): Remix answers it, so no handler sees it thrown.
    context.ctx?.waitUntil(reportError(context.env, error, { request_id: context.requestId, path: fields.path }));
  }
};
