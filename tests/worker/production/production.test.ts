/**
 * The Worker as production runs it (vitest.production.config.ts: [env.production] of wrangler.toml):
 * it refuses to serve with a missing, short or development secret, and none of the development tools
 * exist. Decision 170.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import worker from "../../../app/entry.worker";
import { resolveCountry } from "../../../app/lib/request.server";
import { paymentProviderName } from "../../../app/lib/payments/index.server";
import { outboxAvailable } from "../../../app/models/mail.server";
import { smsOutboxAvailable } from "../../../app/models/sms.server";
import type { Env } from "../../../app/lib/env";
import { CHAT_ROOM_TEST_HOOKS, MEMBER_HUB_TEST_HOOKS } from "../worker-main";

const ctx = () => ({ waitUntil() {}, passThroughOnException() {}, props: {} }) as unknown as ExecutionContext;
const call = (e: Env, path = "/", init?: RequestInit) =>
  worker.fetch(new Request(`http://localhost${path}`, init), e, ctx());

describe("a configured production", () => {
  it("runs as production and serves the landing page", async () => {
    expect(env.ENVIRONMENT).toBe("production");
    const res = await SELF.fetch("http://localhost/");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Amora");
    // The development timing header is not sent in production.
    expect(res.headers.get("Server-Timing")).toBeNull();
  });
});

describe("production refuses to serve with a wrong secret", () => {
  const cases: [string, Partial<Env>, string][] = [
    ["missing session secret", { SESSION_SECRET: undefined }, "SESSION_SECRET (missing)"],
    ["short pepper", { PASSWORD_PEPPER: "pep-1234" }, "PASSWORD_PEPPER (too short)"],
    [
      "development webhook secret",
      { MAIL_WEBHOOK_SECRET: "dev-mail-webhook-secret-not-for-production" },
      "MAIL_WEBHOOK_SECRET (development value)",
    ],
    ["missing VAPID private key", { VAPID_PRIVATE_KEY: "" }, "VAPID_PRIVATE_KEY (missing)"],
    ["a Mollie test key", { MOLLIE_API_KEY_AMORA: "test_" + "a".repeat(30) }, "MOLLIE_API_KEY_AMORA (wrong kind)"],
    ["missing admin token", { ADMIN_TOKEN: undefined }, "ADMIN_TOKEN (missing)"],
    ["missing Twilio token with direct debit on", { TWILIO_AUTH_TOKEN: undefined }, "TWILIO_AUTH_TOKEN (missing)"],
    ["missing age trusted list URL", { AGE_TRUSTED_LIST_URL: undefined }, "AGE_TRUSTED_LIST_URL (missing)"],
    ["missing age trusted list signers", { AGE_TRUSTED_LIST_SIGNERS: "" }, "AGE_TRUSTED_LIST_SIGNERS (missing)"],
    [
      "age trusted list signers that are no certificates",
      { AGE_TRUSTED_LIST_SIGNERS: "-----BEGIN CERTIFICATE-----" + "x".repeat(300) },
      "AGE_TRUSTED_LIST_SIGNERS (wrong kind)",
    ],
    [
      "an age trusted list over plain HTTP",
      { AGE_TRUSTED_LIST_URL: "http://trusted-list.example/av-tl.xml" },
      "AGE_TRUSTED_LIST_URL (wrong kind)",
    ],
  ];
  for (const [name, change, logged] of cases) {
    it(`${name}: 503 "not configured" on every route, one log line naming it without its value`, async () => {
      const spy = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        const broken = { ...env, ...change } as Env;
        for (const [path, init] of [
          ["/", undefined],
          ["/healthz", undefined],
          ["/login", { method: "POST", body: "x=1" }],
          ["/api/payments/webhook", { method: "POST" }],
        ] as const) {
          const res = await call(broken, path, init);
          expect(res.status).toBe(503);
          expect(await res.text()).toContain("Not configured");
        }
        const lines = spy.mock.calls.map((c) => String(c[0])).filter((l) => l.includes("config.not_configured"));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(logged);
        for (const value of Object.values(change)) if (value) expect(lines[0]).not.toContain(value);
      } finally {
        spy.mockRestore();
      }
    });
  }
  it("SMS keys are not required when no brand offers direct debit", async () => {
    const res = await call(
      { ...env, DIRECT_DEBIT: undefined, TWILIO_AUTH_TOKEN: undefined, TWILIO_ACCOUNT_SID: undefined } as Env,
      "/healthz",
    );
    expect(res.status).toBe(200);
  });
  it("sends no queued notification while refusing: the batch is retried later", async () => {
    const broken = { ...env, SESSION_SECRET: undefined } as unknown as Env;
    const retryAll = vi.fn();
    await worker.queue(
      { queue: "notifications-production", messages: [], retryAll, ackAll: vi.fn() } as unknown as MessageBatch<never>,
      broken,
      ctx(),
    );
    expect(retryAll).toHaveBeenCalledOnce();
  });
  it("runs no cron job while refusing, and the same cron does its work once configured", async () => {
    // An expired quota counter: the daily housekeeping deletes it.
    await env.DB.prepare("INSERT INTO counters (key, count, expires_at) VALUES ('cron-probe', 1, 1)").run();
    const probe = () =>
      env.DB.prepare("SELECT count(*) AS n FROM counters WHERE key = 'cron-probe'").first<{ n: number }>();
    const cron = async (e: Env) => {
      const pending: Promise<unknown>[] = [];
      const c = { ...ctx(), waitUntil: (p: Promise<unknown>) => void pending.push(p) } as unknown as ExecutionContext;
      const controller = { cron: "17 3 * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController;
      await worker.scheduled!(controller, e, c);
      await Promise.all(pending);
    };
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await cron({ ...env, PASSWORD_PEPPER: "short" } as Env);
    } finally {
      spy.mockRestore();
    }
    expect((await probe())?.n).toBe(1);
    await cron(env as Env);
    expect((await probe())?.n).toBe(0);
  });
});

describe("production refuses a brand whose company has no Mollie key (decision 206)", () => {
  const host = (e: Env, hostname: string, path = "/") =>
    worker.fetch(new Request(`http://${hostname}${path}`, { headers: { Host: hostname } }), e, ctx());
  it("Herzklang's brand answers 503 naming the missing account; Amora's brands and the console are served", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const noKey = { ...env, MOLLIE_API_KEY_HERZKLANG: undefined } as unknown as Env;
      for (const path of ["/", "/login", "/credits", "/api/payments/webhook"]) {
        const res = await host(noKey, "de.localhost", path);
        expect(res.status, path).toBe(503);
        expect(await res.text()).toContain("its company has no payment account");
      }
      expect((await host(noKey, "localhost")).status).toBe(200);
      // The console stays, where the company's settings show what is missing.
      expect((await host(noKey, "de.localhost", "/admin/login")).status).not.toBe(503);
      expect((await host(noKey, "de.localhost", "/healthz")).status).toBe(200);
      const lines = spy.mock.calls.map((c) => String(c[0])).filter((l) => l.includes("brand_without_payment_account"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("MOLLIE_API_KEY_HERZKLANG");
      expect(lines[0]).toContain("Herzklang GmbH");
      expect(lines[0]).toContain("key missing");
      // With its key back the brand is served again.
      expect((await host(env as Env, "de.localhost")).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
  });
  it("a company key of the wrong mode is refused by the isolate's own check, naming the secret", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const test = await host({ ...env, MOLLIE_API_KEY_HERZKLANG: "test_" + "h".repeat(30) } as Env, "localhost");
      expect(test.status).toBe(503);
      expect(spy.mock.calls.map((c) => String(c[0])).join("\n")).toContain("MOLLIE_API_KEY_HERZKLANG (wrong kind)");
    } finally {
      spy.mockRestore();
    }
  });
});

describe("development tools do not exist in production", () => {
  it("/dev/* answers 404", async () => {
    for (const path of ["/dev/outbox", "/dev/sms", "/dev/styleguide", "/dev/error"]) {
      expect((await SELF.fetch(`http://localhost${path}`)).status, path).toBe(404);
    }
    const sql = await SELF.fetch("http://localhost/dev/sql", {
      method: "POST",
      headers: { Origin: "http://localhost" },
      body: "DELETE FROM users",
    });
    expect(sql.status).toBe(404);
    const wallet = await SELF.fetch("http://localhost/dev/wallet", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ userId: "anyone", credits: 1000 }),
    });
    expect(wallet.status).toBe(404);
  });
  it("the payment sandbox is not there: its checkout is 404 and payments go to Mollie", async () => {
    expect((await SELF.fetch("http://localhost/sandbox/tr_abc")).status).toBe(404);
    expect(paymentProviderName({ ...env, PAYMENT_PROVIDER: "sandbox" } as Env)).toBe("mollie");
  });
  it("mail and SMS go to real senders, never to the outboxes", () => {
    expect(outboxAvailable(env)).toBe(false);
    expect(smsOutboxAvailable(env)).toBe(false);
  });
  it("ignores the X-Dev-Country header and dev_country cookie", () => {
    const req = new Request("http://localhost/", { headers: { "X-Dev-Country": "NL", Cookie: "dev_country=PL" } });
    expect(resolveCountry(req, { env, cf: { country: "DE" } } as never)).toBe("DE");
  });
  it("the conversation's object has none of the worker tests' hooks (decision 230)", async () => {
    const stub = env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName("no-test-hooks"));
    const names = await runInDurableObject(stub, (room) => CHAT_ROOM_TEST_HOOKS.filter((name) => name in room));
    expect(CHAT_ROOM_TEST_HOOKS).toContain("failNextCommit");
    expect(names).toEqual([]);
  });
  it("the member's hub (and its wallet) has none of the worker tests' hooks (decision 236)", async () => {
    const stub = env.MEMBER_HUB.get(env.MEMBER_HUB.idFromName("no-test-hooks"));
    const names = await runInDurableObject(stub, (hub) => MEMBER_HUB_TEST_HOOKS.filter((name) => name in hub));
    expect(MEMBER_HUB_TEST_HOOKS).toContain("walletFailNext");
    expect(names).toEqual([]);
  });
  it("the chat benchmark's echo relay is not routed", async () => {
    const res = await SELF.fetch("http://localhost/ws/echo/x", { headers: { Upgrade: "websocket" } });
    expect(res.status).not.toBe(101);
  });
});

describe("eyes on production", () => {
  it("/healthz is trivial and /readyz checks D1, R2 and the queue", async () => {
    expect(await (await SELF.fetch("http://localhost/healthz")).text()).toBe("ok");
    const ready = await SELF.fetch("http://localhost/readyz");
    expect(await ready.text()).toBe("ready\n");
    expect(ready.status).toBe(200);
    const broken = {
      ...env,
      // A database that is down, read through a session as every request reads (decision 222).
      DB: {
        prepare: () => ({ first: () => Promise.reject(new Error("D1 down")) }),
        withSession() {
          return { prepare: this.prepare, getBookmark: () => null };
        },
      },
    } as unknown as Env;
    const res = await call(broken, "/readyz");
    expect(res.status).toBe(503);
    expect(await res.text()).toBe("not ready: d1\n");
  });
});
