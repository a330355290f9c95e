import { describe, expect, it, vi } from "vitest";
import { parseDsn, reportError, sentryEnvelope } from "../../app/lib/sentry.server";

// Errors to Sentry without its SDK (decision 188): the envelope Sentry's ingestion takes, sent only with a DSN.
const DSN = "https://abc123@o42.ingest.sentry.io/4507";

describe("sentry reporter", () => {
  it("reads a DSN into the envelope endpoint and key; anything else is no DSN", () => {
    expect(parseDsn(DSN)).toEqual({ url: "https://o42.ingest.sentry.io/api/4507/envelope/", key: "abc123" });
    expect(parseDsn("https://k@sentry.example.com/relay/17")).toEqual({
      url: "https://sentry.example.com/relay/api/17/envelope/",
      key: "k",
    });
    for (const bad of ["", "not a url", "https://o42.ingest.sentry.io/4507", "https://k@host/project", "ftp://k@h/1"]) {
      expect(parseDsn(bad), bad).toBeNull();
    }
  });

  it("writes one error event: header, item header, event with the stack oldest call first, no personal data", () => {
    const error = new TypeError("boom");
    error.stack = "TypeError: boom\n    at inner (app/models/x.ts:10:5)\n    at outer (app/routes/y.tsx:20:7)";
    const lines = sentryEnvelope(DSN, error, {
      environment: "production",
      tags: { request_id: "r-1" },
      now: new Date("2026-11-24T12:00:00Z"),
      eventId: "e".repeat(32),
    })
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ event_id: "e".repeat(32), sent_at: "2026-11-24T12:00:00.000Z", dsn: DSN });
    expect(lines[1]).toEqual({ type: "event" });
    expect(lines[2]).toMatchObject({
      level: "error",
      environment: "production",
      tags: { request_id: "r-1" },
      timestamp: 1795521600,
      exception: {
        values: [
          {
            type: "TypeError",
            value: "boom",
            stacktrace: {
              frames: [
                { function: "outer", filename: "app/routes/y.tsx", lineno: 20, colno: 7 },
                { function: "inner", filename: "app/models/x.ts", lineno: 10, colno: 5 },
              ],
            },
          },
        ],
      },
    });
    expect(Object.keys(lines[2])).not.toContain("user");
  });

  it("sends only with a DSN, with Sentry's auth header; a failing Sentry never fails the caller", async () => {
    const fetcher = vi.fn(async () => new Response(null, { status: 200 }));
    await reportError({ ENVIRONMENT: "production" }, new Error("x"), {}, fetcher);
    expect(fetcher).not.toHaveBeenCalled();

    await reportError({ ENVIRONMENT: "production", SENTRY_DSN: DSN }, new Error("x"), { cron: "daily" }, fetcher);
    expect(fetcher).toHaveBeenCalledTimes(1);
    const [url, init] = fetcher.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://o42.ingest.sentry.io/api/4507/envelope/");
    expect((init.headers as Record<string, string>)["X-Sentry-Auth"]).toContain("sentry_key=abc123");
    expect(String(init.body)).toContain('"cron":"daily"');

    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const down = async () => {
      throw new Error("offline");
    };
    await expect(
      reportError({ ENVIRONMENT: "production", SENTRY_DSN: DSN }, new Error("x"), {}, down),
    ).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
