/**
 * The age gate holds wherever a member acts (decision 197), not only on a page load: single-fetch
 * data with `_routes` (the root loader does not run), route actions, the chat socket and the APIs.
 * A member of Herzklang (asks DE FR IT GB) without a proof, arriving from FR, is refused on each and
 * nothing changes; the same member from NL (profile in NL) is let through, so each refusal is the gate's.
 */
import { env, SELF } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { startConversation } from "../../app/models/chat.server";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { roomCount, walletCredits } from "./chat-support";
import { presentTestAttestation } from "../../app/lib/age/test-issuer.server";
import { loadTestIssuer, parseRequestLink } from "../../app/models/age-check.server";
import deAge from "../../locales/de/age.json";

const HERZKLANG = 2;
const HOST = "de.localhost";
const de = { host: HOST };

async function setMode(mode: string, countries = ["DE", "FR", "IT", "GB"]) {
  await env.DB.prepare("UPDATE brands SET age_check = ?2, age_check_countries = ?3 WHERE id = ?1")
    .bind(HERZKLANG, mode, JSON.stringify(countries))
    .run();
}

/** A member without a proof (profile in NL), and another with a conversation between them. */
async function scene() {
  const me = await createMember({ brandId: HERZKLANG, country: "NL", paidUser: true, credits: 100, language: "de" });
  const other = await createMember({ brandId: HERZKLANG, country: "NL", name: "Zelda Gatekeeper" });
  const started = await startConversation(env.DB, other.id, me.id);
  if (!started.ok) throw new Error(started.error);
  return { me, other, cookie: await sessionCookie(me.id), conversationId: started.id };
}

/** A request as a browser (or its scripts) sends it, from `country`'s network. */
function send(method: string, path: string, o: { cookie: string; country?: string; form?: Record<string, string> }) {
  return SELF.fetch(`http://${HOST}${path}`, {
    method,
    headers: {
      Host: HOST,
      Cookie: o.cookie,
      Origin: `http://${HOST}`,
      ...(o.form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
    body: o.form ? new URLSearchParams(o.form) : undefined,
    redirect: "manual",
    cf: o.country ? { country: o.country } : undefined,
  } as RequestInit);
}

/** What a single-fetch answer says: a redirect to the check, or data (turbo-stream text). */
async function singleFetch(path: string, cookie: string, country: string) {
  const res = await send("GET", path, { cookie, country });
  return { status: res.status, text: await res.text() };
}

const likes = (liker: string, liked: string) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM likes WHERE liker_id = ?1 AND liked_id = ?2")
    .bind(liker, liked)
    .first<{ n: number }>()
    .then((r) => r!.n);

const conversationsOf = (id: string) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM conversations WHERE member_a = ?1 OR member_b = ?1")
    .bind(id)
    .first<{ n: number }>()
    .then((r) => r!.n);

describe("the age gate on every way in", () => {
  beforeEach(() => setMode("before_members_area"));

  it("single-fetch data of each member route (with _routes) goes to the check, without the data", async () => {
    const { other, cookie, conversationId } = await scene();
    const routes: [string, string][] = [
      ["/members.data", "routes/members._index"],
      [`/members/${other.id}.data`, "routes/members.$id._index"],
      ["/likes.data", "routes/likes._index"],
      ["/chats.data", "routes/chats._index"],
      [`/chats/${conversationId}.data`, "routes/chats.$id"],
      [`/members/${other.id}/chat.data`, "routes/members_.$id_.chat"],
    ];
    for (const [path, route] of routes) {
      const url = `${path}?_routes=${encodeURIComponent(route)}`;
      const asked = await singleFetch(url, cookie, "FR");
      // Remix's single-fetch redirect: 202 with the target in the stream (the browser follows it).
      expect(asked.status, url).toBe(202);
      expect(asked.text, url).toContain("/age-check?next=");
      expect(asked.text, url).not.toContain("Zelda");
      // From NL: the data (or the route's own redirect: the chat page goes to the existing conversation).
      const open = await singleFetch(url, cookie, "NL");
      expect([200, 202], url).toContain(open.status);
      expect(open.text, url).not.toContain("/age-check");
    }
    // The profile's data would name the other member: the control shows the gate is what hid it.
    expect(
      (await singleFetch(`/members/${other.id}.data?_routes=routes/members.$id._index`, cookie, "NL")).text,
    ).toContain("Zelda");
  });

  it("a route action does nothing: a like, starting a conversation, sending a message", async () => {
    const { me, cookie, conversationId } = await scene();
    const target = await createMember({ brandId: HERZKLANG, country: "NL" });
    const credits = await walletCredits(me.id);

    const like = await send("POST", `/members/${target.id}?index`, { cookie, country: "FR", form: { intent: "like" } });
    expect(like.status).toBe(302);
    expect(like.headers.get("Location")).toBe(`/age-check?next=${encodeURIComponent(`/members/${target.id}`)}`);
    // The same action by single fetch (a page with JavaScript): Remix's redirect, nothing stored.
    const likeData = await send("POST", `/members/${target.id}.data?index`, {
      cookie,
      country: "FR",
      form: { intent: "like" },
    });
    expect(likeData.status).toBe(202);
    expect(await likeData.text()).toContain("/age-check?next=");
    expect(await likes(me.id, target.id)).toBe(0);

    const conversations = await conversationsOf(me.id);
    const start = await send("POST", `/members/${target.id}/chat`, {
      cookie,
      country: "FR",
      form: { clientId: "client-age-gate-1", body: "hello" },
    });
    expect(start.status).toBe(302);
    expect(start.headers.get("Location")).toMatch(/^\/age-check\?next=/);
    expect(await conversationsOf(me.id)).toBe(conversations);

    const message = await send("POST", `/chats/${conversationId}`, {
      cookie,
      country: "FR",
      form: { clientId: "client-age-gate-2", body: "hello" },
    });
    expect(message.status).toBe(302);
    expect(message.headers.get("Location")).toBe(`/age-check?next=${encodeURIComponent(`/chats/${conversationId}`)}`);
    expect(await roomCount(conversationId)).toBe(0);
    expect(await walletCredits(me.id)).toBe(credits);

    // From NL the like is stored: the refusals above were the gate's.
    await send("POST", `/members/${target.id}?index`, { cookie, country: "NL", form: { intent: "like" } });
    expect(await likes(me.id, target.id)).toBe(1);
  });

  it("the chat socket is refused (403) before it upgrades; the member's own hub stays open", async () => {
    const { cookie, conversationId } = await scene();
    const upgrade = (path: string, country: string) =>
      SELF.fetch(`http://${HOST}${path}`, {
        headers: { Upgrade: "websocket", Host: HOST, Cookie: cookie },
        cf: { country },
      } as RequestInit);
    const refused = await upgrade(`/ws/chat/${conversationId}?after=0`, "FR");
    expect(refused.status).toBe(403);
    expect(refused.webSocket).toBeNull();
    expect(await refused.json()).toMatchObject({ error: "age_check_required" });

    const open = await upgrade(`/ws/chat/${conversationId}?after=0`, "NL");
    expect(open.status).toBe(101);
    open.webSocket!.accept();
    open.webSocket!.close(1000);
    const hub = await upgrade("/ws/member", "FR");
    expect(hub.status).toBe(101);
    hub.webSocket!.accept();
    hub.webSocket!.close(1000);
  });

  it("each member API answers 403 age_check_required and changes nothing; logging out still works", async () => {
    const { me, cookie, conversationId } = await scene();
    for (const path of ["/api/chats.php", "/api/likes.php", "/api/auto-like.php"]) {
      const res = await send("GET", path, { cookie, country: "FR" });
      expect(res.status, path).toBe(403);
      expect(await res.json(), path).toEqual({ error: "age_check_required", redirect: "/age-check" });
      expect((await send("GET", path, { cookie, country: "NL" })).status, path).toBe(200);
    }
    const hide = await send("DELETE", "/api/chat.php", {
      cookie,
      country: "FR",
      form: { conversation: conversationId },
    });
    expect(hide.status).toBe(403);
    const hidden = await env.DB.prepare(
      "SELECT hidden_at FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2",
    )
      .bind(conversationId, me.id)
      .first<{ hidden_at: number | null }>();
    expect(hidden!.hidden_at).toBeNull();

    const out = await send("POST", "/api/logout.php", { cookie, country: "FR", form: {} });
    expect(out.status).toBeLessThan(400);
    const after = await send("GET", "/api/chats.php", { cookie, country: "FR" });
    expect(await after.json()).toEqual({ error: "authentication_required" });
  });

  it("the allow-list: the check, the legal pages, the data export and account deletion stay open", async () => {
    const { cookie } = await scene();
    for (const path of ["/age-check?next=%2Fmembers", "/pages/privacy", "/settings/data", "/settings/delete"]) {
      const res = await get(path, { ...de, cookie, country: "FR" });
      expect(res.status, path).toBe(200);
    }
  });

  it("unknown (XX) and Tor (T1) networks are asked; a profile in a listed country is asked from anywhere", async () => {
    const { cookie } = await scene();
    for (const country of [undefined, "XX", "T1"]) {
      const res = await get("/members", { ...de, cookie, country });
      expect(res.status, country).toBe(302);
      expect(res.headers.get("Location"), country).toBe("/age-check?next=%2Fmembers");
    }
    const german = await createMember({ brandId: HERZKLANG, country: "DE" });
    const asked = await get("/members", { ...de, cookie: await sessionCookie(german.id), country: "NL" });
    expect(asked.headers.get("Location")).toBe("/age-check?next=%2Fmembers");
    // The page itself asks them (it does not send them straight back).
    expect(
      (await get("/age-check?next=%2Fmembers", { ...de, cookie: await sessionCookie(german.id), country: "NL" }))
        .status,
    ).toBe(200);
    // A brand that asks nobody asks no unknown network either.
    await setMode("off");
    expect((await get("/members", { ...de, cookie })).status).toBe(200);
  });
});

describe("what the check keeps", () => {
  beforeEach(() => setMode("before_members_area"));

  /** Answers the request the page shows; returns its state and the cookie the page set to remember it. */
  async function answer(cookie: string, kind: "valid" | "under_18") {
    const res = await get("/age-check?next=%2Fchats%2Fsecret-page", { ...de, cookie, country: "FR" });
    const shown = (res.headers.get("Set-Cookie") ?? "").split(";")[0]!;
    const href = /href="(av:\/\/[^"]+)"/.exec(await res.text())![1]!.replaceAll("&amp;", "&");
    const req = parseRequestLink(href)!;
    const presentation = await presentTestAttestation(await loadTestIssuer(env.DB), kind, { ...req, now: new Date() });
    const answered = await post(
      "/age-check/response",
      { vp_token: JSON.stringify({ av: [presentation] }), state: req.state },
      de,
    );
    // The link on this device: the app's redirect completes the answer in this browser (decision 198).
    const redirect =
      answered.status === 200 ? ((await answered.json()) as { redirect_uri?: string }).redirect_uri : null;
    if (redirect) {
      const back = new URL(redirect);
      await (await get(back.pathname + back.search, { ...de, cookie: `${cookie}; ${shown}`, country: "FR" })).text();
    }
    // The wallet's state is the request id and the flow it was shown for.
    return { state: req.state.replace(/\.[sx]$/, ""), shown };
  }

  it("an under-18 refusal is kept beside neither the member nor the page; the member is still told", async () => {
    const { me, cookie } = await scene();
    const { state, shown } = await answer(cookie, "under_18");
    expect(shown).toBe(`age_s=${state}`);
    const rows = await env.DB.prepare("SELECT subject, next, reason FROM age_requests WHERE id = ?1 OR subject = ?2")
      .bind(state, me.id)
      .all<{ subject: string; next: string; reason: string | null }>();
    expect(rows.results).toEqual([{ subject: "-", next: "/", reason: "under_18" }]);
    const told = await post("/age-check", { state, next: "/members" }, { ...de, cookie, country: "FR" });
    expect(await told.text()).toContain(deAge.refused.under_18);
    // Back from the app: the browser's own cookie names the request, so the page says why, once.
    const back = await get("/age-check?next=%2Fmembers", { ...de, cookie: `${cookie}; ${shown}`, country: "FR" });
    expect(await back.text()).toContain(deAge.refused.under_18);
    const fresh = (back.headers.get("Set-Cookie") ?? "").split(";")[0]!;
    expect(fresh).not.toBe(shown);
    const again = await get("/age-check?next=%2Fmembers", { ...de, cookie: `${cookie}; ${fresh}`, country: "FR" });
    expect(await again.text()).not.toContain(deAge.refused.under_18);
  });

  it("the member's data export holds their proof of age", async () => {
    const { cookie } = await scene();
    await answer(cookie, "valid");
    const exported = (await (await get("/settings/data", { ...de, cookie, country: "FR" })).json()) as {
      age_proofs: { method: string; proved_at: number; valid_until: number }[];
    };
    expect(exported.age_proofs).toEqual([
      { method: "eu_av_app", proved_at: expect.any(Number), valid_until: expect.any(Number) },
    ]);
  });
});
