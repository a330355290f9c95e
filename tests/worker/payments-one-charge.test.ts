/**
 * One charge per click (decision 115): the same click posted many times at once (a double click,
 * a replay) is one payment and one call to the provider. The provider here is the Mollie adapter
 * talking to a fetch stub that plays Mollie's API, so every create call is counted as it leaves.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import mandatesList from "./mollie/mandates-list.json";
import { expectLedgerExplains, get, member, post, userRow } from "./payments-support";
import { grantCredits } from "./fixtures";

type Created = { body: Record<string, unknown>; idempotencyKey: string | null };
let created: Created[] = [];
let restore: (() => void) | null = null;

/** Mollie's API as far as these flows use it: payments are created (recurring ones paid at once); the rest is unavailable. */
function playMollie() {
  const realFetch = globalThis.fetch;
  const saved = { provider: env.PAYMENT_PROVIDER, key: env.MOLLIE_API_KEY_AMORA };
  Object.assign(env, { PAYMENT_PROVIDER: "mollie", MOLLIE_API_KEY_AMORA: "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM" });
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    if (url.hostname !== "api.mollie.com") return realFetch(input, init);
    if (req.method === "POST" && url.pathname === "/v2/payments") {
      const body = (await req.json()) as Record<string, unknown>;
      created.push({ body, idempotencyKey: req.headers.get("Idempotency-Key") });
      // A little like the network: the other clicks arrive while this one is on its way.
      await new Promise((r) => setTimeout(r, 50));
      const id = `tr_click${created.length}`;
      const recurring = body.sequenceType === "recurring";
      const payment = {
        resource: "payment",
        id,
        mode: "test",
        status: recurring ? "paid" : "open",
        amount: body.amount,
        description: body.description,
        method: body.method ?? "creditcard",
        metadata: body.metadata,
        sequenceType: body.sequenceType,
        customerId: body.customerId,
        mandateId: body.mandateId,
        createdAt: new Date().toISOString(),
        ...(recurring ? { paidAt: new Date().toISOString() } : {}),
        _links: recurring
          ? {}
          : { checkout: { href: `https://www.mollie.com/checkout/select-method/${id}`, type: "text/html" } },
      };
      return Response.json(payment, { status: 201, headers: { "Content-Type": "application/hal+json" } });
    }
    // The repeat order looks at its mandate first: the recorded list, where mdt_h3gAaD5zP is valid.
    if (req.method === "GET" && url.pathname === "/v2/customers/cst_8wmqcHMN4U/mandates")
      return Response.json(mandatesList, { headers: { "Content-Type": "application/hal+json" } });
    if (req.method === "GET" && url.pathname === "/v2/methods") {
      return Response.json({
        count: 1,
        _embedded: { methods: [{ resource: "method", id: "ideal", description: "iDEAL" }] },
      });
    }
    return Response.json({ status: 503, title: "Service Unavailable", detail: "not played here" }, { status: 503 });
  });
  restore = () => {
    spy.mockRestore();
    Object.assign(env, { PAYMENT_PROVIDER: saved.provider, MOLLIE_API_KEY_AMORA: saved.key });
  };
}

beforeEach(() => {
  created = [];
  playMollie();
});
afterEach(() => {
  restore?.();
  restore = null;
});

/** The one-time token a page rendered into its form (the pay button's carries the method). */
async function keyOn(path: string, cookie: string, method?: string): Promise<string> {
  const html = await (await get(path, { cookie })).text();
  const keys = [...html.matchAll(/name="intent_key" value="([^"]+)"/g)].map((m) => m[1]!);
  const key = method ? keys.find((k) => k.endsWith(`.${method}`)) : keys[0];
  expect(key, `a token on ${path}`).toBeTruthy();
  return key!;
}

const paymentsOf = async (userId: string) =>
  (
    await env.DB.prepare(
      "SELECT id, status, sequence_type, intent_key FROM payments WHERE user_id = ?1 ORDER BY created_at, rowid",
    )
      .bind(userId)
      .all<{
        id: string;
        status: string;
        sequence_type: string;
        intent_key: string | null;
      }>()
  ).results;

/** A member who paid p0 by card with Mollie earlier: a valid mandate to repeat the order on. */
async function withCardMandate() {
  const m = await member();
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status, sequence_type,
         customer_id, mandate_id, payment_country, paid_at, created_at)
       VALUES (?1, ?2, 1, 'p0', 25, 995, 'EUR', 'creditcard', 'mollie', 'tr_first', 'paid', 'first', 'cst_8wmqcHMN4U', 'mdt_h3gAaD5zP', 'NL', unixepoch() - 86400, unixepoch() - 86400)`,
    ).bind(`first-${m.id}`, m.id),
    env.DB.prepare("UPDATE users SET paid_user = 1 WHERE id = ?1").bind(m.id),
  ]);
  await grantCredits(m.id, 25, { key: `payment:first-${m.id}`, reason: "purchase", refId: `first-${m.id}` });
  return m;
}

describe("a double click on Repeat order", () => {
  it("15 posts of the same click at once: one recurring payment, one provider call, credited once", async () => {
    const m = await withCardMandate();
    const key = await keyOn("/credits/repeat-order", m.cookie);
    const answers = await Promise.all(
      Array.from({ length: 15 }, () =>
        post("/credits/repeat-order", { intent: "repeat", intent_key: key }, { cookie: m.cookie }),
      ),
    );
    const repeats = (await paymentsOf(m.id)).filter((p) => p.sequence_type === "recurring");
    expect(repeats).toHaveLength(1);
    expect(repeats[0]).toMatchObject({ status: "paid", intent_key: key });
    expect(created).toHaveLength(1);
    expect(created[0]!.idempotencyKey).toBe(key);
    // Every answer shows that one payment (the browser follows the last click's answer).
    for (const a of answers) {
      expect(a.status).toBe(302);
      expect(a.headers.get("Location")).toBe(`/credits/repeat-order?payment=${repeats[0]!.id}`);
    }
    expect(await userRow(m.id)).toMatchObject({ credits: 50 });
    await expectLedgerExplains(m.id);

    // A later click (the page rendered again) is a new intent: charged, once.
    const next = await keyOn("/credits/repeat-order", m.cookie);
    expect(next).not.toBe(key);
    await Promise.all(
      [next, next, key].map((k) =>
        post("/credits/repeat-order", { intent: "repeat", intent_key: k }, { cookie: m.cookie }),
      ),
    );
    expect((await paymentsOf(m.id)).filter((p) => p.sequence_type === "recurring")).toHaveLength(2);
    expect(created).toHaveLength(2);
    expect(await userRow(m.id)).toMatchObject({ credits: 75 });
  });

  it("a post without the page's token (not our form), or with a malformed one, charges nothing", async () => {
    const m = await withCardMandate();
    for (const form of [
      { intent: "repeat" } as Record<string, string>,
      { intent: "repeat", intent_key: "short" },
      { intent: "repeat", intent_key: "x".repeat(500) },
    ]) {
      const res = await post("/credits/repeat-order", form, { cookie: m.cookie });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("The payment could not be started");
    }
    expect((await paymentsOf(m.id)).filter((p) => p.sequence_type === "recurring")).toHaveLength(0);
    expect(created).toHaveLength(0);
  });

  it("another member's token is not theirs to reuse: it finds nothing of the first member's", async () => {
    const a = await withCardMandate();
    const b = await withCardMandate();
    const key = await keyOn("/credits/repeat-order", a.cookie);
    expect(
      (await post("/credits/repeat-order", { intent: "repeat", intent_key: key }, { cookie: a.cookie })).status,
    ).toBe(302);
    const res = await post("/credits/repeat-order", { intent: "repeat", intent_key: key }, { cookie: b.cookie });
    expect(res.headers.get("Location") ?? "").not.toContain(
      (await paymentsOf(a.id)).find((p) => p.sequence_type === "recurring")!.id,
    );
    expect((await paymentsOf(b.id)).filter((p) => p.sequence_type === "recurring")).toHaveLength(0);
    expect(created).toHaveLength(1);
  });
});

describe("a double click on the checkout's pay button", () => {
  it("15 posts of the same click at once: one payment, one provider call, and every answer leads to its checkout", async () => {
    const m = await member();
    const key = await keyOn("/credits/p1/ideal", m.cookie, "ideal");
    const answers = await Promise.all(
      Array.from({ length: 15 }, () =>
        post("/credits/p1/ideal", { intent: "pay", method: "ideal", intent_key: key }, { cookie: m.cookie }),
      ),
    );
    const rows = await paymentsOf(m.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.intent_key).toBe(key);
    expect(created).toHaveLength(1);
    expect(created[0]!.idempotencyKey).toBe(key);
    for (const a of answers) {
      expect(a.status).toBe(302);
      expect(a.headers.get("Location")).toBe("https://www.mollie.com/checkout/select-method/tr_click1");
    }
  });

  it("the try-out package: the same click 10 times is one payment and one provider call", async () => {
    const m = await member();
    const key = await keyOn("/credits/tryout/ideal", m.cookie, "ideal");
    await Promise.all(
      Array.from({ length: 10 }, () =>
        post("/credits/tryout/ideal", { intent: "pay", method: "ideal", intent_key: key }, { cookie: m.cookie }),
      ),
    );
    expect(await paymentsOf(m.id)).toHaveLength(1);
    expect(created).toHaveLength(1);
  });

  it("a pay post without a token starts nothing", async () => {
    const m = await member();
    const res = await post("/credits/p1/ideal", { intent: "pay", method: "ideal" }, { cookie: m.cookie });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The payment could not be started");
    expect(await paymentsOf(m.id)).toHaveLength(0);
    expect(created).toHaveLength(0);
  });
});
