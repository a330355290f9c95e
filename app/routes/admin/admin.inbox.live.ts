/**
 * GET /admin/inbox/live (chat team, admin; decision 210): a server-sent event stream for the inbox
 * list's script. It sends the inbox's version (waiting conversations and claims of the operator's
 * brands, one indexed query) at once and whenever it changes, checked every few seconds, and ends
 * after a minute (the browser reconnects by itself), so no request lives for long.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { inboxVersion } from "~/models/admin/inbox.server";

/** The console part this page belongs to: its loader admits only the roles that open it. */
export const area: OperatorArea = "inbox";

/** How often the version is compared, and how long one stream lasts. */
export const LIVE_CHECK_MS = 4000;
export const LIVE_STREAM_MS = 60_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const encoder = new TextEncoder();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  // A browser that goes away rejects these: nothing to do then.
  writer.closed.catch(() => {});
  writer.ready.catch(() => {});
  const run = async () => {
    let last = "";
    const until = Date.now() + LIVE_STREAM_MS;
    try {
      // Reconnect after 5 s when the stream ends or breaks.
      await writer.write(encoder.encode("retry: 5000\n\n"));
      while (!request.signal.aborted) {
        const version = await inboxVersion(context.env.DB, operator);
        if (version !== last) await writer.write(encoder.encode(`event: inbox\ndata: ${version}\n\n`));
        last = version;
        if (Date.now() + LIVE_CHECK_MS > until) break;
        await new Promise((r) => setTimeout(r, LIVE_CHECK_MS));
      }
    } catch {
      // The browser went away.
    } finally {
      await writer.close().catch(() => {});
    }
  };
  context.ctx.waitUntil(run());
  return new Response(readable, {
    headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no" },
  });
}
