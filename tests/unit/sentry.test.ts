import { describe, expect, it } from "vitest";
import type { ErrorEvent } from "@sentry/cloudflare";
import { reportError, scrubEvent, sentryOptions, withSentryWhenSet } from "../../app/lib/sentry.server";
import type { Env } from "../../app/lib/env";

// Errors to Sentry through its SDK only with a DSN (decision 231); what leaves carries no personal data.
describe("sentry", () => {
  it("an event keeps the request's method and path, the stack and tags; no user, IP, cookies, headers, query or body", () => {
    const event = {
      type: undefined,
      event_id: "e".repeat(32),
      server_name: "host-1",
      user: { id: "u-1", email: "a@example.com", ip_address: "203.0.113.9" },
      request: {
        method: "POST",
        url: "https://brand.example/reset-password/do?token=secret#x",
        headers: { cookie: "__session=abc", "cf-connecting-ip": "203.0.113.9", "user-agent": "UA" },
        cookies: { __session: "abc" },
        data: "email=a%40example.com&password=hunter2",
        query_string: "token=secret",
      },
      tags: { request_id: "r-1" },
      exception: { values: [{ type: "TypeError", value: "boom" }] },
      breadcrumbs: [
        {
          category: "fetch",
          data: { url: "https://api.mollie.com/v2/payments?token=x", method: "GET", status_code: 500, body: "card" },
        },
        { category: "console", message: "member a@example.com failed" },
      ],
    } as unknown as ErrorEvent;
    const out = JSON.stringify(scrubEvent(event));
    for (const secret of ["a@example.com", "203.0.113.9", "abc", "hunter2", "token", "UA", "host-1", "card"]) {
      expect(out).not.toContain(secret);
    }
    expect(scrubEvent(event)).toMatchObject({
      request: { method: "POST", url: "https://brand.example/reset-password/do" },
      tags: { request_id: "r-1" },
      exception: { values: [{ type: "TypeError", value: "boom" }] },
      breadcrumbs: [{ category: "fetch", data: { url: "https://api.mollie.com/v2/payments", status_code: 500 } }, {}],
    });
  });

  it("the options name the environment and release, send no default personal data and scrub each event", () => {
    const o = sentryOptions({
      SENTRY_DSN: "https://k@o1.ingest.sentry.io/2",
      SENTRY_RELEASE: "abc1234",
      ENVIRONMENT: "production",
    });
    expect(o).toMatchObject({ environment: "production", release: "abc1234", sendDefaultPii: false });
    expect(o.beforeSend).toBe(scrubEvent);
  });

  it("without a DSN the handlers run unwrapped and reporting does nothing", async () => {
    const env = { ENVIRONMENT: "production" } as Env;
    const seen: unknown[] = [];
    const handler = withSentryWhenSet({
      fetch: async (request: Request) => {
        seen.push(request.url);
        return new Response("ok");
      },
    });
    const fetch = handler.fetch as unknown as (r: Request, e: Env, c: ExecutionContext) => Promise<Response>;
    const res = await fetch(new Request("https://x.example/"), env, {} as ExecutionContext);
    expect(await res.text()).toBe("ok");
    expect(seen).toEqual(["https://x.example/"]);
    await expect(reportError(env, new Error("x"))).resolves.toBeUndefined();
  });
});
