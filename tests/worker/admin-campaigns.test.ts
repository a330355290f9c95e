/**
 * The console's campaigns (decision 183): role checks, audit rows, malformed posts
 * changing nothing, the audience counted before sending, and the paging through the queue: a 2,500-member
 * audience goes out in several pages with every eligible member mailed exactly once, switched-off
 * members counted as skipped, a paused campaign stops at the next page, a retried or doubled page
 * mails nobody twice. The paging tests drive the queue by hand (a recording queue) so they are exact.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Mail } from "../../app/models/mail.server";
import { changeStatus, saveCampaign, type CampaignForm } from "../../app/models/admin/campaigns.server";
import { countAudience, runCampaignPage } from "../../app/models/campaign-send.server";
import { deliver, type NotifyMessage } from "../../app/models/notify.server";
import { OPERATOR_PASSWORD, auditRows, createOperator, operatorCookie } from "./admin-support";
import { createMember } from "./fixtures";
import { senders } from "./notify-support";

async function operator(role: "support" | "admin" | "finance" | "moderator") {
  const op = await createOperator(role);
  return { ...op, cookie: await operatorCookie(op.id) };
}

let brands = 0;
/** A brand of its own (a copy of Flirtlokaal, brand 3, speaking nl), so an audience is exactly this test's members. */
async function ownBrand(): Promise<number> {
  const row = (await env.DB.prepare("SELECT * FROM brands WHERE id = 3").first<Record<string, unknown>>())!;
  const id = 1900 + ++brands;
  Object.assign(row, { id, hostname: `campaigns-${id}.localhost`, is_default: 0 });
  const cols = Object.keys(row);
  await env.DB.prepare(`INSERT INTO brands (${cols.join(", ")}) VALUES (${cols.map((_, i) => `?${i + 1}`).join(", ")})`)
    .bind(...cols.map((c) => row[c]))
    .run();
  return id;
}

/** Many confirmed members of a brand at once (literal multi-row INSERTs; ids sort by number). */
async function bulkMembers(brandId: number, n: number, prefix: string) {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(5, "0")}`);
  for (let i = 0; i < n; i += 250) {
    const part = ids.slice(i, i + 250);
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO users (id, brand_id, email, password_hash, status, language) VALUES ${part
          .map((id) => `('${id}', ${brandId}, '${id}@example.com', 'x', 'confirmed', 'nl')`)
          .join(", ")}`,
      ),
      env.DB.prepare(
        `INSERT INTO profiles (user_id, name, gender, date_of_birth, country, status) VALUES ${part
          .map((id) => `('${id}', 'M', 'female', '1990-01-01', 'NL', 'active')`)
          .join(", ")}`,
      ),
    ]);
  }
  return ids;
}

const form = (brandId: number, o: Partial<CampaignForm> = {}): CampaignForm => ({
  brandId,
  type: "promotions",
  path: "/credits",
  plan: "all",
  title: { nl: "Lente-actie", en: "Spring offer" },
  body: { nl: "Dubbele credits dit weekend.", en: "Double credits this weekend." },
  ...o,
});

/** A queue that records what is sent, for driving pages and deliveries by hand. */
function recordingQueue() {
  const messages: NotifyMessage[] = [];
  const queue = {
    send: async (body: NotifyMessage) => void messages.push(body),
    sendBatch: async (batch: Iterable<{ body: NotifyMessage }>) => void messages.push(...[...batch].map((m) => m.body)),
  } as unknown as Queue<NotifyMessage>;
  return { messages, env: { ...env, NOTIFY_QUEUE: queue } };
}

/** Works the recorded queue until it is empty: pages through runCampaignPage, member events through deliver. */
async function drain(q: ReturnType<typeof recordingQueue>, mails: Mail[], size = 500) {
  let pages = 0;
  const mailer = { send: async (m: Mail) => void mails.push(m) };
  while (q.messages.length) {
    const m = q.messages.shift()!;
    if (m.kind === "campaign_page") {
      pages += 1;
      await runCampaignPage(q.env, m.campaignId, undefined, size);
    } else await deliver(env, m, senders({ mailer }));
  }
  return pages;
}

const campaignRow = (id: number) =>
  env.DB.prepare("SELECT * FROM campaigns WHERE id = ?1").bind(id).first<Record<string, unknown>>();
const actorOf = (op: { id: string; role: string }) => ({ id: op.id, role: op.role });

function post(path: string, cookie: string, fields: Record<string, string>) {
  return SELF.fetch(`http://localhost${path}`, {
    method: "POST",
    headers: {
      Host: "localhost",
      Origin: "http://localhost",
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: cookie,
    },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}
const get = (path: string, cookie: string) => SELF.fetch(`http://localhost${path}`, { headers: { Cookie: cookie } });

const newForm = (brandId: number, o: Record<string, string> = {}) => ({
  intent: "save",
  brandId: String(brandId),
  type: "promotions",
  path: "/credits",
  plan: "all",
  language: "",
  country: "",
  activeDays: "",
  title_nl: "Lente-actie",
  body_nl: "Dubbele credits.",
  ...o,
});

describe("who opens the campaigns", () => {
  it("support and admin do; finance and moderator get 403 and create nothing", async () => {
    const brandId = await ownBrand();
    for (const role of ["support", "admin"] as const) {
      const { cookie } = await operator(role);
      expect((await get("/admin/campaigns", cookie)).status, role).toBe(200);
      expect((await get("/admin/campaigns/new", cookie)).status, role).toBe(200);
    }
    for (const role of ["finance", "moderator"] as const) {
      const { cookie } = await operator(role);
      expect((await get("/admin/campaigns", cookie)).status, role).toBe(403);
      expect((await post("/admin/campaigns/new", cookie, newForm(brandId))).status, role).toBe(403);
    }
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM campaigns WHERE brand_id = ?1").bind(brandId).first("n");
    expect(n).toBe(0);
  });
});

describe("the console's actions", () => {
  it("create, edit, preview, test, send, pause, resume: each audited; the test mail reaches the operator's outbox", async () => {
    const brandId = await ownBrand();
    const fan = await createMember({ brandId, language: "nl", name: "Fenna" });
    const op = await operator("support");
    const created = await post("/admin/campaigns/new", op.cookie, newForm(brandId));
    expect(created.status).toBe(302);
    const id = Number(/\/admin\/campaigns\/(\d+)/.exec(created.headers.get("Location")!)![1]);
    expect(await campaignRow(id)).toMatchObject({ status: "draft", created_by: op.id, brand_id: brandId });

    const edited = await post(`/admin/campaigns/${id}`, op.cookie, newForm(brandId, { title_nl: "Nieuwe actie" }));
    expect(edited.status).toBe(302);
    expect(JSON.parse(String((await campaignRow(id))!.title))).toEqual({ nl: "Nieuwe actie" });

    const preview = await post(`/admin/campaigns/${id}`, op.cookie, { intent: "preview", member: fan.email });
    expect(preview.status).toBe(200);
    const html = await preview.text();
    expect(html).toContain("Nieuwe actie");
    expect(html).toContain("Dubbele credits.");
    expect(html).toContain("Fenna");

    const test = await post(`/admin/campaigns/${id}`, op.cookie, { intent: "test" });
    expect(test.status).toBe(200);
    const outbox = await env.DB.prepare('SELECT subject FROM mail_outbox WHERE "to" = ?1').bind(op.email).all();
    expect(outbox.results).toEqual([{ subject: "[Test] Nieuwe actie" }]);

    for (const intent of ["send", "pause", "resume"]) {
      // Sending is confirmed, with the password again (decision 217).
      const confirmed: Record<string, string> =
        intent === "send" ? { confirmed: "1", reauth_password: OPERATOR_PASSWORD } : {};
      const res = await post(`/admin/campaigns/${id}`, op.cookie, { intent, ...confirmed });
      expect(res.status, intent).toBe(302);
    }
    const actions = (await auditRows(String(id))).filter((r) => r.targetType === "campaign").map((r) => r.action);
    expect(actions).toEqual([
      "campaign.create",
      "campaign.edit",
      "campaign.preview",
      "campaign.test",
      "campaign.send",
      "campaign.pause",
      "campaign.resume",
    ]);
    expect((await auditRows(String(id))).every((r) => r.operatorId === op.id)).toBe(true);
  });

  it("keeps the body's line breaks in the mail's text and HTML; what was typed stays text", async () => {
    const brandId = await ownBrand();
    const op = await operator("support");
    const body = 'Regel een\r\nRegel twee\r\n\r\n<b onclick="x()">vet</b> & <script>meer</script>';
    const created = await post("/admin/campaigns/new", op.cookie, newForm(brandId, { body_nl: body }));
    expect(created.status).toBe(302);
    const id = Number(/\/admin\/campaigns\/(\d+)/.exec(created.headers.get("Location")!)![1]);
    expect((await post(`/admin/campaigns/${id}`, op.cookie, { intent: "test" })).status).toBe(200);
    const mail = (await env.DB.prepare('SELECT text, html FROM mail_outbox WHERE "to" = ?1')
      .bind(op.email)
      .first<{ text: string; html: string }>())!;
    expect(mail.text).toContain('Regel een\nRegel twee\n\n<b onclick="x()">vet</b> & <script>meer</script>');
    expect(mail.text).not.toContain("\r");
    expect(mail.html).toContain(
      "<p>Regel een<br>\nRegel twee<br>\n<br>\n&lt;b onclick=&quot;x()&quot;&gt;vet&lt;/b&gt; &amp; &lt;script&gt;meer&lt;/script&gt;</p>",
    );
    expect(mail.html).not.toMatch(/<script|<b /);
  });

  it("malformed posts are 4xx with a message and change nothing (no row, no audit)", async () => {
    const brandId = await ownBrand();
    const op = await operator("admin");
    const bad: Record<string, string>[] = [
      newForm(brandId, { title_nl: "", body_nl: "" }), // the brand's language is needed
      newForm(brandId, { path: "https://evil.test/" }),
      newForm(brandId, { path: "//evil.test" }),
      newForm(brandId, { brandId: "999999" }),
      newForm(brandId, { brandId: "abc" }),
      newForm(brandId, { type: "reminders" }),
      newForm(brandId, { plan: "gold" }),
      newForm(brandId, { language: "xx" }),
      newForm(brandId, { country: "Germany" }),
      newForm(brandId, { activeDays: "-3" }),
      newForm(brandId, { activeDays: "1e9" }),
      newForm(brandId, { title_de: "Nur Betreff" }),
      newForm(brandId, { title_nl: "x".repeat(151) }),
      newForm(brandId, { body_nl: "x".repeat(4001) }),
    ];
    for (const fields of bad) {
      const res = await post("/admin/campaigns/new", op.cookie, fields);
      expect(res.status, JSON.stringify(fields).slice(0, 120)).toBe(400);
    }
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM campaigns WHERE brand_id = ?1").bind(brandId).first("n");
    expect(n).toBe(0);

    // A draft: status changes it cannot take, unknown intents, a past schedule, another campaign's id.
    const saved = await saveCampaign(env.DB, actorOf(op), null, form(brandId));
    if (!saved.ok) throw new Error("not saved");
    const id = saved.id;
    const before = await auditRows(String(id));
    for (const [fields, status] of [
      [{ intent: "pause" }, 409],
      [{ intent: "resume" }, 409],
      [{ intent: "unschedule" }, 409],
      [{ intent: "explode" }, 400],
      [{ intent: "schedule", sendAt: "2020-01-01T10:00" }, 400],
      [{ intent: "schedule", sendAt: "tomorrow" }, 400],
      [{ intent: "preview", member: "" }, 400],
      [{ intent: "preview", member: "nobody@example.com" }, 404],
    ] as const) {
      const res = await post(`/admin/campaigns/${id}`, op.cookie, fields);
      expect(res.status, JSON.stringify(fields)).toBe(status);
    }
    expect((await post("/admin/campaigns/99999999", op.cookie, { intent: "send" })).status).toBe(404);
    expect((await post("/admin/campaigns/abc", op.cookie, { intent: "send" })).status).toBe(404);
    expect(await campaignRow(id)).toMatchObject({ status: "draft", send_at: null });
    expect(await auditRows(String(id))).toEqual(before);
  });
});

describe("sending", () => {
  it("the count before sending matches who is mailed; switched-off, invisible, suspended, unconfirmed and deleted members are skipped", async () => {
    const brandId = await ownBrand();
    const ok = [await createMember({ brandId }), await createMember({ brandId, paidUser: true })];
    const off = await createMember({ brandId });
    await env.DB.prepare("INSERT INTO notifications_disabled (user_id, type, reason) VALUES (?1, 'promotions', 'user')")
      .bind(off.id)
      .run();
    const hidden = await createMember({ brandId });
    await env.DB.prepare("UPDATE users SET invisible = 1 WHERE id = ?1").bind(hidden.id).run();
    const banned = await createMember({ brandId });
    await env.DB.prepare("UPDATE users SET suspended_until = unixepoch() + 86400 WHERE id = ?1").bind(banned.id).run();
    await createMember({ brandId, status: "not_confirmed" });
    const gone = await createMember({ brandId });
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE id = ?1").bind(gone.id).run();
    await createMember({ brandId, country: "DE" });
    await createMember({ brandId, language: "de" });

    const op = await createOperator("support");
    const saved = await saveCampaign(env.DB, actorOf(op), null, form(brandId, { country: "NL", language: "en" }));
    if (!saved.ok) throw new Error("not saved");
    const c = (await campaignRow(saved.id))!;
    const audience = await countAudience(env.DB, {
      brandId,
      type: "promotions",
      language: "en",
      country: "NL",
      plan: "all",
      activeDays: null,
    });
    expect(audience).toEqual({ total: 7, eligible: 2 });
    // Premium only: one of them.
    expect(
      await countAudience(env.DB, {
        brandId,
        type: "promotions",
        language: null,
        country: null,
        plan: "premium",
        activeDays: null,
      }),
    ).toEqual({ total: 1, eligible: 1 });

    const q = recordingQueue();
    expect(await changeStatus(q.env, actorOf(op), Number(c.id), "send")).toBe(true);
    const mails: Mail[] = [];
    await drain(q, mails);
    expect(mails.map((m) => m.to).sort()).toEqual(ok.map((m) => m.email).sort());
    expect(await campaignRow(Number(c.id))).toMatchObject({ status: "done", sent: 2, skipped: 5, failed: 0 });
  });

  it(
    "a 2,500-member audience goes out in pages through the queue; every eligible member is mailed exactly once",
    { timeout: 300_000 },
    async () => {
      const brandId = await ownBrand();
      const ids = await bulkMembers(brandId, 2500, `bulk${brandId}`);
      // Every 25th switched promotions off: 100 skipped.
      const off = ids.filter((_, i) => i % 25 === 0);
      await env.DB.prepare(
        `INSERT INTO notifications_disabled (user_id, type, reason) VALUES ${off.map((id) => `('${id}', 'promotions', 'user')`).join(", ")}`,
      ).run();
      const op = await createOperator("admin");
      const saved = await saveCampaign(env.DB, actorOf(op), null, form(brandId));
      if (!saved.ok) throw new Error("not saved");
      const before = await countAudience(env.DB, {
        brandId,
        type: "promotions",
        language: null,
        country: null,
        plan: "all",
        activeDays: null,
      });
      expect(before).toEqual({ total: 2500, eligible: 2400 });

      const q = recordingQueue();
      await changeStatus(q.env, actorOf(op), saved.id, "send");
      const mails: Mail[] = [];
      const pages = await drain(q, mails);
      expect(pages).toBe(6); // 5 full pages of 500 and the empty one that finds the end.
      const to = mails.map((m) => m.to);
      expect(to.length).toBe(2400);
      expect(new Set(to).size).toBe(2400);
      const offMails = new Set(off.map((id) => `${id}@example.com`));
      expect(to.some((t) => offMails.has(t))).toBe(false);
      expect(mails[0]!.subject).toBe("Lente-actie");
      expect(await campaignRow(saved.id)).toMatchObject({ status: "done", sent: 2400, skipped: 100, failed: 0 });
    },
  );

  it("a paused campaign stops at the next page; resumed, it carries on and mails nobody twice", async () => {
    const brandId = await ownBrand();
    const ids = await bulkMembers(brandId, 10, `pause${brandId}`);
    const op = await createOperator("support");
    const saved = await saveCampaign(env.DB, actorOf(op), null, form(brandId));
    if (!saved.ok) throw new Error("not saved");
    const q = recordingQueue();
    await changeStatus(q.env, actorOf(op), saved.id, "send");
    const mails: Mail[] = [];
    const mailer = { send: async (m: Mail) => void mails.push(m) };
    // The first page (3 members) runs; its events and the next page are queued.
    const first = q.messages.shift()!;
    expect(first.kind).toBe("campaign_page");
    expect(await runCampaignPage(q.env, saved.id, undefined, 3)).toBe("next");
    await changeStatus(q.env, actorOf(op), saved.id, "pause");
    const events = q.messages.filter((m) => m.kind === "campaign");
    const nextPage = q.messages.filter((m) => m.kind === "campaign_page");
    expect(events).toHaveLength(3);
    expect(nextPage).toHaveLength(1);
    q.messages.length = 0;
    for (const e of events) if (e.kind === "campaign") await deliver(env, e, senders({ mailer }));
    // The queued next page finds the campaign paused: nothing more is queued or mailed.
    expect(await runCampaignPage(q.env, saved.id, undefined, 3)).toBe("stopped");
    expect(q.messages).toEqual([]);
    expect(await campaignRow(saved.id)).toMatchObject({ status: "paused", sent: 3, cursor: ids[2] });

    await changeStatus(q.env, actorOf(op), saved.id, "resume");
    await drain(q, mails, 3);
    expect(mails.map((m) => m.to).sort()).toEqual(ids.map((id) => `${id}@example.com`));
    expect(await campaignRow(saved.id)).toMatchObject({ status: "done", sent: 10, skipped: 0 });
  });

  it("a page delivered twice at once, or retried after its next page failed to queue, mails nobody twice", async () => {
    const brandId = await ownBrand();
    const ids = await bulkMembers(brandId, 7, `retry${brandId}`);
    const op = await createOperator("support");
    const saved = await saveCampaign(env.DB, actorOf(op), null, form(brandId));
    if (!saved.ok) throw new Error("not saved");
    const q = recordingQueue();
    await changeStatus(q.env, actorOf(op), saved.id, "send");
    q.messages.length = 0;
    // The same page twice at once (the queue delivers at least once): one moves the cursor.
    const outcomes = await Promise.all([
      runCampaignPage(q.env, saved.id, undefined, 3),
      runCampaignPage(q.env, saved.id, undefined, 3),
    ]);
    expect(outcomes.sort()).toEqual(["lost", "next"]);
    // The next page's own "next page" cannot be queued: the message fails and is retried.
    const failing = {
      ...q.env,
      NOTIFY_QUEUE: {
        ...q.env.NOTIFY_QUEUE,
        send: async () => {
          throw new Error("queue down");
        },
      },
    };
    q.messages.splice(
      q.messages.findIndex((m) => m.kind === "campaign_page"),
      1,
    );
    await expect(runCampaignPage(failing, saved.id, undefined, 3)).rejects.toThrow("queue down");
    // The retry finds the cursor moved and carries on with the page after.
    const mails: Mail[] = [];
    q.messages.push({ kind: "campaign_page", campaignId: saved.id });
    await drain(q, mails, 3);
    const to = mails.map((m) => m.to);
    expect(to.sort()).toEqual(ids.map((id) => `${id}@example.com`));
    expect(await campaignRow(saved.id)).toMatchObject({ status: "done", sent: 7 });
  });
});
