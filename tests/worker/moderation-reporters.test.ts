/**
 * A reporter's record and DSA Art. 23 (decision 225): moderators see each reporter's notices with
 * their outcomes and the share unfounded, in the case and on the record page, with a hint at the
 * threshold; after a warning they suspend the processing of that reporter's notices for a set period
 * (mailed in the reporter's language, audited). Meanwhile new notices are received but set aside and
 * the reporter is told so, except notices alleging illegal content; the suspension ends by itself
 * (the clock held and moved) and can be lifted early, audited.
 */
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { REPORTER_HINT } from "../../app/models/reporter-rules";
import { auditRows } from "./admin-support";
import { clockStopped } from "./clock";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { decideAs, mailsTo, moderator } from "./moderation-support";

const DAY = 86_400;

/** `reporter` reports `target`'s profile; the answer's redirect. */
async function report(reporter: { id: string }, target: { id: string }, category = "spam", explanation = "") {
  const res = await post(
    `/report?member=${target.id}`,
    { category, explanation, ...(category === "illegal" ? { goodFaith: "on" } : {}) },
    { cookie: await sessionCookie(reporter.id) },
  );
  expect(res.status).toBe(302);
  return res.headers.get("Location")!;
}
/** A console page's text without React's markers between interpolations. */
const page = async (path: string, cookie: string) =>
  (await (await get(path, { cookie })).text()).replaceAll("<!-- -->", "");
const openCase = (memberId: string) =>
  env.DB.prepare("SELECT id FROM moderation_cases WHERE member_id = ?1 AND status = 'open'")
    .bind(memberId)
    .first<string>("id");

describe("a reporter's record", () => {
  it("shows each notice's outcome and the share unfounded in the case and on the record page; the hint at the threshold", async () => {
    const mod = await moderator();
    const reporter = await createMember({ name: "Rex Reporter", language: "de" });
    const targets = await Promise.all(Array.from({ length: 6 }, () => createMember()));
    for (const t of targets) await report(reporter, t);
    const cases = await Promise.all(targets.map(async (t) => (await openCase(t.id))!));
    // One restriction, then no action on the others one by one: the hint appears at the fifth decided.
    await decideAs(mod, cases[0]!, {
      action: "suspend",
      days: "3",
      rule: "commercial",
      facts: "Werbung für eine andere Website.",
    });
    for (const c of cases.slice(1, 4))
      await decideAs(mod, c, { action: "no_action", rule: "", facts: "Nothing against the terms here." });
    const pending = cases[5]!;
    const before = await page(`/admin/reports/${pending}`, mod);
    expect(before).toContain("6 notices · 1 action taken · 3 no action · 2 pending · 75 % unfounded");
    expect(before).not.toContain("often unfounded lately");
    await decideAs(mod, cases[4]!, { action: "no_action", rule: "", facts: "Nothing against the terms here." });
    const after = await page(`/admin/reports/${pending}`, mod);
    expect(after).toContain("6 notices · 1 action taken · 4 no action · 1 pending · 80 % unfounded");
    expect(after).toContain("often unfounded lately");
    expect(after).toContain(`href="/admin/reporters/${reporter.id}"`);

    const html = await page(`/admin/reporters/${reporter.id}`, mod);
    expect(html).toContain("Reporter: member Rex Reporter");
    expect(html).toContain(`At least ${REPORTER_HINT.minDecided} decided notices in ${REPORTER_HINT.days} days`);
    for (const c of cases) expect(html).toContain(`/admin/reports/${c}`);
    expect(html.match(/>no action</g)).toHaveLength(4);
    expect(html.match(/>action taken</g)).toHaveLength(1);
    expect(html.match(/>pending</g)).toHaveLength(1);
    // The reporter is named to moderators only: the member's own pages and unknown records give nothing.
    expect((await get(`/admin/reporters/nobody-${Date.now()}`, { cookie: mod })).status).toBe(404);
    expect((await get(`/admin/reporters/${encodeURIComponent("not an address")}`, { cookie: mod })).status).toBe(404);
  });
});

describe("suspending the processing of a reporter's notices (DSA Art. 23)", () => {
  it(
    "needs a warning first; sets new notices aside (told, in their language) except illegal content; ends by itself; lifted early, audited",
    clockStopped(async () => {
      const mod = await moderator();
      const reporter = await createMember({ name: "Rita", language: "de" });
      const email = (await env.DB.prepare("SELECT email FROM users WHERE id = ?1")
        .bind(reporter.id)
        .first<string>("email"))!;
      const url = `/admin/reporters/${reporter.id}`;
      await report(reporter, await createMember());
      const measures = () =>
        env.DB.prepare("SELECT kind, days, ends_at, lifted_at FROM reporter_measures WHERE reporter_id = ?1")
          .bind(reporter.id)
          .all<{ kind: string; days: number | null; ends_at: number | null; lifted_at: number | null }>()
          .then((r) => r.results);

      // No suspension without a prior warning.
      const early = await post(
        url,
        { intent: "suspend", days: "30", reason: "Viele unbegründete Meldungen." },
        { cookie: mod },
      );
      expect(await early.text()).toContain("Warn the reporter first");
      expect(await measures()).toEqual([]);
      // A forged length beyond the limit is refused, nothing made.
      const tooLong = await post(url, { intent: "suspend", days: "999", reason: "x y z" }, { cookie: mod });
      expect(await tooLong.text()).toContain("Give a reason");

      expect((await post(url, { intent: "warn", reason: "Fünf Meldungen ohne Grund." }, { cookie: mod })).status).toBe(
        200,
      );
      const warning = (await mailsTo(email)).at(-1)!;
      expect(warning.subject).toBe("Eine Verwarnung wegen deiner Meldungen an Amora");
      expect(warning.text).toContain("Unsere Begründung: Fünf Meldungen ohne Grund.");
      expect(warning.text).toContain("/complaints");

      const now = Math.floor(Date.now() / 1000);
      const ok = await post(
        url,
        { intent: "suspend", days: "30", reason: "Weiter unbegründete Meldungen." },
        { cookie: mod },
      );
      expect(await ok.text()).toContain("Suspended for 30 days");
      expect(await measures()).toEqual([
        { kind: "warning", days: null, ends_at: null, lifted_at: null },
        { kind: "suspension", days: 30, ends_at: now + 30 * DAY, lifted_at: null },
      ]);
      const statement = (await mailsTo(email)).at(-1)!;
      expect(statement.subject).toBe("Wir haben die Bearbeitung deiner Meldungen an Amora ausgesetzt");
      const until = new Intl.DateTimeFormat("de", { dateStyle: "long", timeZone: "UTC" }).format(
        new Date((now + 30 * DAY) * 1000),
      );
      expect(statement.text).toContain(`für 30 Tage ausgesetzt, bis ${until}`);
      expect(statement.text).toContain("Unsere Begründung: Weiter unbegründete Meldungen.");
      expect(statement.text).toContain("innerhalb von sechs Monaten bei uns beschweren");
      expect(statement.text).toContain("außergerichtliche Streitbeilegungsstelle");
      // A second suspension while one runs: refused.
      expect(
        await (await post(url, { intent: "suspend", days: "10", reason: "Noch einmal." }, { cookie: mod })).text(),
      ).toContain("already suspended");

      // A new notice is received but set aside: no case, the reporter told so on the page and by mail.
      const spammed = await createMember();
      const where = await report(reporter, spammed);
      expect(where).toBe(`/report?sent=held&until=${now + 30 * DAY}`);
      expect(await openCase(spammed.id)).toBeNull();
      expect(
        await env.DB.prepare("SELECT category FROM set_aside_notices WHERE reporter_id = ?1")
          .bind(reporter.id)
          .first("category"),
      ).toBe("spam");
      const held = await (await get(where, { cookie: await sessionCookie(reporter.id) })).text();
      expect(held).toMatch(/will not review it|werden sie aber nicht prüfen/);
      expect((await mailsTo(email)).at(-1)!.subject).toBe(
        "Wir haben deine Meldung erhalten, werden sie aber nicht prüfen",
      );
      // Logged out, with the same address, as a visitor: set aside too.
      const visitor = await post(`/report?member=${spammed.id}`, { category: "fake", email });
      expect(visitor.headers.get("Location")).toMatch(/^\/report\?sent=held/);
      expect(await openCase(spammed.id)).toBeNull();
      // A notice alleging illegal content is processed whatever the suspension; the case says who sent it.
      const threat = await createMember();
      expect(await report(reporter, threat, "illegal", "He threatened to kill me in his messages.")).toBe(
        "/report?sent=1",
      );
      const threatCase = (await openCase(threat.id))!;
      expect(threatCase).toBeTruthy();
      expect(await page(`/admin/reports/${threatCase}`, mod)).toContain("processing suspended until");
      const recordPage = await page(url, mod);
      expect(recordPage).toContain("Received while suspended, not processed (1)");

      // The period ends by itself: a second after it, notices are processed again.
      vi.setSystemTime((now + 30 * DAY + 1) * 1000);
      const later = await createMember();
      expect(await report(reporter, later)).toBe("/report?sent=1");
      expect(await openCase(later.id)).toBeTruthy();

      // Suspended again (the warning is still within the year), then lifted early: audited, told. An
      // operator's session lasts a working day: another moderator of this later day.
      const mod2 = await moderator();
      const resumed = await post(
        url,
        { intent: "suspend", days: "14", reason: "Wieder unbegründete Meldungen." },
        { cookie: mod2 },
      );
      expect(await resumed.text()).toContain("Suspended for 14 days");
      const again = await createMember();
      expect(await report(reporter, again)).toMatch(/^\/report\?sent=held/);
      const lift = await post(
        url,
        { intent: "lift", reason: "Reporter explained, notices were right." },
        { cookie: mod2 },
      );
      expect(await lift.text()).toContain("Lifted");
      expect((await mailsTo(email)).at(-1)!.subject).toBe("Deine Meldungen an Amora werden wieder bearbeitet");
      expect(await report(reporter, again)).toBe("/report?sent=1");
      expect(await openCase(again.id)).toBeTruthy();
      expect(await (await post(url, { intent: "lift", reason: "Twice." }, { cookie: mod2 })).text()).toContain(
        "No suspension is running.",
      );
      expect((await auditRows(reporter.id)).map((r) => r.action)).toEqual([
        "reporter.warn",
        "reporter.suspend",
        "reporter.suspend",
        "reporter.lift",
      ]);
    }),
  );
});
