/**
 * The methods list as Mollie is asked for it: cached per account, country, currency, amount band and
 * sequence type (one call per cache window, not two per page view), a GET never retried (one short try;
 * the table decides when Mollie cannot be asked), and a 429 waited out once when its Retry-After is short.
 */
import { describe, expect, it } from "vitest";
import { methodsFor } from "../../app/models/payments/methods.server";
import methodsNl from "./mollie/methods-nl.json";
import tooMany from "./mollie/error-429.json";
import unavailable from "./mollie/error-503.json";
import { AMORA, clone, fakeMollie, json, mollieContext, pauses } from "./mollie-support";

/** A test_ key of its own, so no other test's cached list answers. */
const account = () => `test_${crypto.randomUUID().replaceAll("-", "").slice(0, 30)}`;

describe("the methods list", () => {
  it("one call per sequence type per cache window: renders and pay clicks in the same amount band ask Mollie no more", async () => {
    const calls = fakeMollie(() => json(200, clone(methodsNl)));
    const ctx = mollieContext([], account());
    const first = await methodsFor(ctx, AMORA, "NL", { cents: 1995, currency: "EUR" });
    expect(calls).toHaveLength(2);
    // The page again, a pay click, and a cheaper package in the same band: from the cache.
    expect(await methodsFor(ctx, AMORA, "NL", { cents: 1995, currency: "EUR" })).toEqual(first);
    await methodsFor(ctx, AMORA, "NL", { cents: 1495, currency: "EUR" });
    expect(calls).toHaveLength(2);
    // Another country, another band, another account: asked.
    await methodsFor(ctx, AMORA, "BE", { cents: 1995, currency: "EUR" });
    await methodsFor(ctx, AMORA, "NL", { cents: 9995, currency: "EUR" });
    await methodsFor(mollieContext([], account()), AMORA, "NL", { cents: 1995, currency: "EUR" });
    expect(calls).toHaveLength(8);
  });

  it("a cached list still honours each method's own limits for the exact amount", async () => {
    const list = clone(methodsNl) as { _embedded: { methods: Record<string, unknown>[] } };
    list._embedded.methods[0]!.maximumAmount = { value: "20.00", currency: "EUR" };
    const id = list._embedded.methods[0]!.id as string;
    fakeMollie(() => json(200, list));
    const ctx = mollieContext([], account());
    expect(
      (await methodsFor(ctx, AMORA, "NL", { cents: 1995, currency: "EUR" })).map((m) => m.providerMethod),
    ).toContain(id);
    // Same band (25.00 and under), above that method's maximum: not offered from the cache.
    expect(
      (await methodsFor(ctx, AMORA, "NL", { cents: 2400, currency: "EUR" })).map((m) => m.providerMethod),
    ).not.toContain(id);
  });

  it("a GET is tried once: a 503 is not retried, the page falls back to the table and nothing is cached", async () => {
    let down = true;
    const calls = fakeMollie(() => (down ? json(503, unavailable) : json(200, clone(methodsNl))));
    const ctx = mollieContext([], account());
    const fallback = await methodsFor(ctx, AMORA, "NL", { cents: 1995, currency: "EUR" });
    expect(calls).toHaveLength(2);
    expect(pauses).toEqual([]);
    expect(fallback.length).toBeGreaterThan(0);
    down = false;
    await methodsFor(ctx, AMORA, "NL", { cents: 1995, currency: "EUR" });
    expect(calls).toHaveLength(4);
  });

  it("a 429 is waited out once when Retry-After is short, and not at all when it is long", async () => {
    const calls = fakeMollie((call, attempt) =>
      attempt === 1
        ? new Response(JSON.stringify(tooMany), {
            status: 429,
            headers: {
              "Content-Type": "application/hal+json",
              "Retry-After": call.url.searchParams.get("billingCountry") === "NL" ? "1" : "60",
            },
          })
        : json(200, clone(methodsNl)),
    );
    await methodsFor(mollieContext([], account()), AMORA, "NL", { cents: 1995, currency: "EUR" });
    expect(pauses).toEqual([1000, 1000]);
    expect(calls).toHaveLength(4);
    pauses.length = 0;
    await methodsFor(mollieContext([], account()), AMORA, "DE", { cents: 1995, currency: "EUR" });
    expect(pauses).toEqual([]);
    expect(calls).toHaveLength(6);
  });
});
