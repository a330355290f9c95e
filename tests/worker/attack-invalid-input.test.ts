/**
 * The attacker's and clumsy client's view of form values (decision 082): impossible dates,
 * invisible or direction-flipping names, CR/LF that would reach mail subjects, invisible chat
 * messages and unknown regions are refused or cleaned in one place, and nothing bad is stored.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { post, sessionCookie } from "./fixtures";
import { member } from "./members-support";
import { cid, roomCount, roomStub, pair, PRICES } from "./chat-support";
import { signupForm, send, signUp } from "./accounts-support";

beforeAll(async () => {
  await env.DB.prepare(
    `INSERT OR IGNORE INTO regions (country, code, name) VALUES ('NL', '09', 'Utrecht'), ('DE', '16', 'Berlin')`,
  ).run();
});

const base = {
  gender: "female",
  sexuality: "hetero",
  date_of_birth: "1990-01-01",
  country: "NL",
  region: "",
  city: "",
  about_me: "",
  hair_colour: "",
  eye_colour: "",
  body_type: "",
  relationship_status: "",
  tattoos: "",
  signup_reason: "",
};
const profileOf = (id: string) =>
  env.DB.prepare("SELECT name, date_of_birth, region, about_me FROM profiles WHERE user_id = ?1")
    .bind(id)
    .first<Record<string, string>>();

describe("one date rule", () => {
  it("/profile refuses 2000-02-31 as sign-up does", async () => {
    const m = await member({ name: "Dated" });
    const cookie = await sessionCookie(m.id);
    for (const dob of ["2000-02-31", "1999-02-29", "1990-04-31", "1990-00-10", "+01990-01-01"]) {
      const res = await post("/profile", { ...base, name: "Dated", date_of_birth: dob }, { cookie });
      expect(res.status, dob).toBe(400);
      expect(await res.text()).toContain("Invalid date of birth.");
    }
    expect((await profileOf(m.id))!.date_of_birth).toBe("1990-05-01");
    const signup = await send("/signup", signupForm({ date_of_birth: "2000-02-31" }));
    expect(await signup.text()).toContain("Invalid date of birth.");
  });
});

describe("text is normalised in one place", () => {
  it("a name of only zero-width or invisible characters is refused on /profile and at sign-up", async () => {
    const m = await member({ name: "Visible" });
    const cookie = await sessionCookie(m.id);
    for (const name of [
      "\u200b\u200b\u200b",
      "\u200d\u200c\u2060\ufeff",
      "\u3164\u3164",
      "\u202e\u202d  ",
      "\u00a0\u3000\u2800",
    ]) {
      const res = await post("/profile", { ...base, name }, { cookie });
      expect(res.status, JSON.stringify(name)).toBe(400);
      const signup = await send("/signup", signupForm({ name }));
      expect(signup.status, JSON.stringify(name)).toBe(200);
      expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM profiles WHERE name = ?1").bind(name).first("n")).toBe(0);
    }
    expect((await profileOf(m.id))!.name).toBe("Visible");
  });

  it("bidi overrides and CR/LF never reach what is stored (or a mail subject)", async () => {
    const m = await member({ name: "Plain" });
    const cookie = await sessionCookie(m.id);
    const res = await post(
      "/profile",
      { ...base, name: "Eve\u202egnp.exe\r\nBcc: x@evil.test", about_me: "Line one\r\nLine\u2066 two\u0007" },
      { cookie },
    );
    expect(res.status).toBe(302);
    const row = (await profileOf(m.id))!;
    expect(row.name).toBe("Evegnp.exe Bcc: x@evil.test");
    expect(row.about_me).toBe("Line one\nLine two");
    const form = signupForm({ name: "Ann\r\nSubject: hi" });
    expect((await signUp(form)).status).toBe(302);
    expect(
      await env.DB.prepare("SELECT p.name FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ?1")
        .bind(form.email)
        .first("name"),
    ).toBe("Ann Subject: hi");
  });

  it("names are stored in NFC", async () => {
    const m = await member({ name: "Plain" });
    const cookie = await sessionCookie(m.id);
    expect((await post("/profile", { ...base, name: "Zoe\u0308 Rene\u0301" }, { cookie })).status).toBe(302);
    expect((await profileOf(m.id))!.name).toBe("Zo\u00eb Ren\u00e9");
  });

  it("a chat message of only invisible characters is refused and not charged", async () => {
    const { alice, conversationId } = await pair();
    const result = await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "\u200b\u202e\u2060 \u00a0",
    });
    expect(result).toMatchObject({ ok: false, error: "empty" });
    expect(await env.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(alice.id).first("credits")).toBe(100);
    expect(await roomCount(conversationId)).toBe(0);
  });
});

describe("region", () => {
  it("must be a known region code of the chosen country (another country's is not kept)", async () => {
    const m = await member({ name: "Regional" });
    const cookie = await sessionCookie(m.id);
    for (const region of ["ZZ", "<script>", "9".repeat(40)]) {
      const res = await post("/profile", { ...base, name: "Regional", region }, { cookie });
      expect(res.status, region).toBe(400);
    }
    expect((await profileOf(m.id))!.region).toBe("");
    // A code of another country only (a form sent without JavaScript after the country changed) is dropped.
    const foreign = await env.DB.prepare(
      "SELECT code FROM regions WHERE country != 'NL' AND code NOT IN (SELECT code FROM regions WHERE country = 'NL') LIMIT 1",
    ).first<string>("code");
    expect((await post("/profile", { ...base, name: "Regional", region: foreign! }, { cookie })).status).toBe(302);
    expect((await profileOf(m.id))!.region).toBe("");
    expect((await post("/profile", { ...base, name: "Regional", region: "09" }, { cookie })).status).toBe(302);
    expect((await profileOf(m.id))!.region).toBe("09");
  });
});
