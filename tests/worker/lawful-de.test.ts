/**
 * German and Austrian brands (decision 213): the Impressum names the register court, the managing
 * directors, the youth-protection officer with contact details and the consumer dispute statement;
 * "New members" and "Reminders" mails, like promotions and news, stay off until the member opts in.
 */
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { get } from "./fixtures";
import { pageText, signupForm, signUp } from "./accounts-support";
import { scheduleInactiveReminders, scheduleNewMembersDigest } from "../../app/models/notify.server";
import type { NotifyEvent } from "../../app/models/notify-events";

describe("Impressum", () => {
  it("names the register court, the managing directors, the youth-protection officer and the § 36 VSBG statement, in German and in English", async () => {
    const de = await pageText(await get("/pages/impressum", { host: "de.localhost" }));
    for (const text of [
      "Registergericht: Amtsgericht Charlottenburg",
      "Registernummer: HRB 245781 B",
      "Vertreten durch die Geschäftsführung: Katrin Vogel, Jonas Brandt",
      "Jugendmedienschutz-Staatsvertrag (JMStV)",
      "Dr. Miriam Albers",
      "jugendschutz@herzklang.example · +49 30 - 555 012 99",
      "nicht bereit und nicht verpflichtet, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen (§ 36 VSBG)",
    ])
      expect(de, text).toContain(text);
    const en = await pageText(await get("/pages/impressum", { host: "de.localhost", headers: { Cookie: "lng=en" } }));
    for (const text of [
      "Register court: Amtsgericht Charlottenburg",
      "Represented by the managing directors: Katrin Vogel, Jonas Brandt",
      "Youth protection officer",
      "neither willing nor obliged",
    ])
      expect(en, text).toContain(text);
  });
});

describe("New members and Reminders by opt-in", () => {
  const disabled = async (email: string) =>
    (
      await env.DB.prepare(
        "SELECT nd.type FROM notifications_disabled nd JOIN users u ON u.id = nd.user_id WHERE u.email = ?1 ORDER BY nd.type",
      )
        .bind(email)
        .all<{ type: string }>()
    ).results.map((r) => r.type);

  it("a sign-up without the opt-in gets neither mail; with it, both", async () => {
    const quiet = signupForm();
    const keen = signupForm({ marketing: "on" });
    expect((await signUp(quiet)).status).toBe(302);
    expect((await signUp(keen)).status).toBe(302);
    expect(await disabled(quiet.email)).toEqual(["new_members", "news", "promotions", "reminders"]);
    expect(await disabled(keen.email)).toEqual([]);

    // Both confirmed and three weeks away: only the one who opted in is sent the digest and the reminder.
    const now = Math.floor(Date.now() / 1000);
    await env.DB.prepare("UPDATE users SET status = 'confirmed', last_seen_at = ?1 WHERE email IN (?2, ?3)")
      .bind(now - 21 * 86400, quiet.email, keen.email)
      .run();
    const ids = await env.DB.prepare("SELECT id, email FROM users WHERE email IN (?1, ?2)")
      .bind(quiet.email, keen.email)
      .all<{ id: string; email: string }>();
    const idOf = (email: string) => ids.results.find((r) => r.email === email)!.id;
    const sent = vi.spyOn(env.NOTIFY_QUEUE, "sendBatch");
    await scheduleNewMembersDigest(env, new Date());
    await scheduleInactiveReminders(env, new Date());
    const events = sent.mock.calls.flatMap((c) => [...c[0]].map((m) => m.body as NotifyEvent));
    sent.mockRestore();
    const to = (id: string) => events.flatMap((e) => (e.kind === "digest" && e.userId === id ? [e.type] : []));
    expect(to(idOf(quiet.email))).toEqual([]);
    expect(to(idOf(keen.email)).sort()).toEqual(["new_members", "reminders"]);
  });
});
