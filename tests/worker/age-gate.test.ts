/**
 * Age assurance (decision 185): the gate per mode and country, the OpenID4VP response
 * (good once, for its own request only), refusals shown after "Continue", and bodies that store nothing.
 * The mdoc verification itself is tested where it is built (app/lib/age/mdoc.server.ts).
 */
import { env, SELF } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMember, get, photoRow, post, sessionCookie } from "./fixtures";
import { cookiesOf, memberWithPassword, PASSWORD, send, signupForm, signUp } from "./accounts-support";
import { photoKey } from "../../app/models/photos.server";
import { ageGate, loadTestIssuer, parseRequestLink, requestLink } from "../../app/models/age-check.server";
import { ageCheckFigures } from "../../app/models/admin/dashboard.server";
import { presentTestAttestation, type WalletAnswer } from "../../app/lib/age/test-issuer.server";
import deAge from "../../locales/de/age.json";

const HERZKLANG = 2;
const de = { host: "de.localhost" };
const DAY_MS = 86_400_000;

async function setMode(mode: string, countries = ["DE", "FR", "IT", "GB"], days = 365) {
  await env.DB.prepare("UPDATE brands SET age_check = ?2, age_check_countries = ?3, age_check_days = ?4 WHERE id = ?1")
    .bind(HERZKLANG, mode, JSON.stringify(countries), days)
    .run();
}

async function herzklangMember(country = "DE") {
  const m = await createMember({ brandId: HERZKLANG, country, language: "de" });
  return { ...m, cookie: await sessionCookie(m.id) };
}

/**
 * The request the /age-check page shows this browser (the same-device `av://` link), as the app reads
 * it; `id` is the page's own state ("Continue"), `cookie` the browser that made it.
 */
async function openRequest(cookie: string, country = "FR") {
  const res = await get("/age-check?next=%2Fmembers", { ...de, cookie, country });
  expect(res.status).toBe(200);
  const html = await res.text();
  const href = /href="(av:\/\/[^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
  expect(href).toBeTruthy();
  const req = parseRequestLink(href!);
  expect(req).not.toBeNull();
  return { ...req!, id: req!.state.replace(/\.s$/, ""), cookie };
}

async function present(answer: WalletAnswer, req: { nonce: string; clientId: string; responseUri: string }) {
  return presentTestAttestation(await loadTestIssuer(env.DB), answer, { ...req, now: new Date() });
}

/** The app's direct_post; a same-device answer's redirect is then followed in the browser that made the request. */
async function respond(presentation: string, req: { state: string; cookie?: string }) {
  const res = await post(
    "/age-check/response",
    { vp_token: JSON.stringify({ av: [presentation] }), state: req.state },
    de,
  );
  const redirect = res.status === 200 ? ((await res.clone().json()) as { redirect_uri?: string }).redirect_uri : null;
  if (redirect && req.cookie)
    await get(new URL(redirect).pathname + new URL(redirect).search, { ...de, cookie: req.cookie });
  return res;
}

async function proofs(subject: string) {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM age_proofs WHERE subject = ?1")
    .bind(subject)
    .first<{ n: number }>();
  return row!.n;
}

async function statusOf(state: string) {
  const id = state.replace(/\.[sx]$/, "");
  return (await env.DB.prepare("SELECT status FROM age_requests WHERE id = ?1").bind(id).first<{ status: string }>())
    ?.status;
}

/**
 * An authorization request by value as a strict OpenID4VP 1.0 wallet reads it (§5.1, §5.9.3 the
 * `redirect_uri:` prefix, §6 DCQL, §8.2 direct_post): every parameter exactly once, no request object.
 */
function strictAuthorizationRequest(link: string) {
  const params = new URL(link).searchParams;
  const names = [...params.keys()];
  expect(new Set(names).size, "each parameter once").toBe(names.length);
  expect(names.sort()).toEqual([
    "client_id",
    "dcql_query",
    "nonce",
    "response_mode",
    "response_type",
    "response_uri",
    "state",
  ]);
  const get = (name: string) => params.get(name)!;
  expect(get("response_type")).toBe("vp_token");
  expect(get("response_mode")).toBe("direct_post");
  // redirect_uri: prefix: unsigned, and with direct_post the response_uri is the client id's own URI.
  expect(get("client_id")).toBe(`redirect_uri:${get("response_uri")}`);
  expect(new URL(get("response_uri")).pathname).toBe("/age-check/response");
  expect(get("nonce")).toMatch(/^[\w-]{22,}$/); // 16 random bytes or more, base64url
  expect(get("state")).toMatch(/^[\w.-]{16,}$/);
  const dcql = JSON.parse(get("dcql_query")) as {
    credentials: { id: string; format: string; meta: { doctype_value: string }; claims: { path: string[] }[] }[];
  };
  expect(dcql.credentials).toHaveLength(1);
  const [credential] = dcql.credentials;
  expect(credential!.id).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(credential!.format).toBe("mso_mdoc");
  expect(credential!.meta).toEqual({ doctype_value: "eu.europa.ec.av.1" });
  expect(credential!.claims).toEqual([{ path: ["eu.europa.ec.av.1", "age_over_18"] }]);
  return { clientId: get("client_id"), responseUri: get("response_uri"), nonce: get("nonce"), state: get("state") };
}

describe("the OpenID4VP request and its same-device binding", () => {
  beforeEach(() => setMode("before_members_area"));

  it("the page's link and QR code are plain OpenID4VP 1.0 parameters, no request object", async () => {
    const m = await herzklangMember();
    const page = await (await get("/age-check?next=%2Fmembers", { ...de, cookie: m.cookie, country: "FR" })).text();
    const href = /href="(av:\/\/[^"]+)"/.exec(page)![1]!.replaceAll("&amp;", "&");
    const link = strictAuthorizationRequest(href);
    expect(link.clientId).toBe("redirect_uri:http://de.localhost/age-check/response");
    const qr = strictAuthorizationRequest(
      requestLink("http://de.localhost", { id: "r".repeat(16), nonce: link.nonce }, "cross_device"),
    );
    expect([qr.state, link.state.endsWith(".s")]).toEqual(["r".repeat(16) + ".x", true]);
  });

  it("a same-device answer completes only in the browser that made the request, with its response_code", async () => {
    const maker = await herzklangMember(); // opens the check and relays its link to someone else
    const other = await herzklangMember(); // whose app answers it; the app opens their browser
    const req = await openRequest(maker.cookie);
    const res = await post(
      "/age-check/response",
      { vp_token: JSON.stringify({ av: [await present("valid", req)] }), state: req.state },
      de,
    );
    expect(res.status).toBe(200);
    const back = new URL(((await res.json()) as { redirect_uri: string }).redirect_uri);
    const path = back.pathname + back.search;
    expect(await statusOf(req.state)).toBe("answered");
    // "Continue" in the maker's browser does not complete it, nor does a made-up code.
    const cont = await post(
      "/age-check",
      { state: req.id, next: "/members" },
      { ...de, cookie: maker.cookie, country: "FR" },
    );
    expect([cont.status, cont.headers.get("Location")]).toEqual([200, null]);
    expect(await cont.text()).toContain(deAge.otherBrowser);
    const guess = await get(`/age-check?next=%2Fmembers&response_code=${"A".repeat(22)}`, {
      ...de,
      cookie: maker.cookie,
      country: "FR",
    });
    expect(guess.status).toBe(200);
    // The other browser follows the redirect: told so, and nobody is credited.
    const there = await get(path, { ...de, cookie: other.cookie, country: "FR" });
    expect(there.status).toBe(200);
    expect(await there.text()).toContain(deAge.otherBrowser);
    expect([await proofs(maker.id), await proofs(other.id), await statusOf(req.state)]).toEqual([0, 0, "answered"]);
    // The maker's browser with the code: the proof, once.
    const done = await get(path, { ...de, cookie: maker.cookie, country: "FR" });
    expect([done.status, done.headers.get("Location")]).toEqual([302, "/members"]);
    expect([await proofs(maker.id), await statusOf(req.state)]).toEqual([1, "used"]);
    const code = await env.DB.prepare("SELECT response_code FROM age_requests WHERE id = ?1").bind(req.id).first();
    expect(code).toEqual({ response_code: null });
  });

  it("the development wallet reads the link, answers, and its way back completes the check", async () => {
    const m = await herzklangMember();
    const page = await (await get("/age-check?next=%2Fmembers", { ...de, cookie: m.cookie, country: "FR" })).text();
    const href = /href="(av:\/\/[^"]+)"/.exec(page)![1]!.replaceAll("&amp;", "&");
    const sent = await post(
      "/dev/age-wallet",
      { request: href, answer: "valid", previous: "" },
      { ...de, cookie: m.cookie },
    );
    expect(sent.status).toBe(200);
    const html = await sent.text();
    const back = /href="(http:\/\/de\.localhost\/age-check\?[^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
    expect(back).toMatch(/&response_code=[\w-]{22}$/);
    expect(await proofs(m.id)).toBe(0);
    const url = new URL(back);
    const done = await get(url.pathname + url.search, { ...de, cookie: m.cookie, country: "FR" });
    expect([done.status, done.headers.get("Location"), await proofs(m.id)]).toEqual([302, "/members", 1]);
  });

  it("a cross-device answer (the QR code) gets no redirect; Continue in the browser that made it completes it", async () => {
    const m = await herzklangMember();
    const req = await openRequest(m.cookie);
    const state = req.id + ".x";
    const res = await post(
      "/age-check/response",
      { vp_token: JSON.stringify({ av: [await present("valid", req)] }), state },
      de,
    );
    expect([res.status, await res.json()]).toEqual([200, {}]);
    const cont = await post(
      "/age-check",
      { state: req.id, next: "/members" },
      { ...de, cookie: m.cookie, country: "FR" },
    );
    expect([cont.status, cont.headers.get("Location")]).toEqual([302, "/members"]);
    // A suffix of neither flow is no state of ours.
    expect((await respond(await present("valid", req), { state: req.id })).status).toBe(400);
  });
});

describe("age assurance", () => {
  beforeEach(() => setMode("before_members_area"));
  afterEach(() => vi.useRealTimers());

  it("a Herzklang member from FR sees the check instead of /members until verified; from NL not", async () => {
    const m = await herzklangMember("NL");
    const asked = await get("/members", { ...de, cookie: m.cookie, country: "FR" });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe("/age-check?next=%2Fmembers");
    // A single-fetch navigation is gated the same way.
    const data = await get("/members.data", { ...de, cookie: m.cookie, country: "FR" });
    expect([202, 204, 302]).toContain(data.status);
    expect((await get("/members", { ...de, cookie: m.cookie, country: "NL" })).status).toBe(200);
    // The public pages stay open.
    for (const path of ["/", "/login", "/pages/privacy", "/age-check?next=%2Fmembers"]) {
      const res = await get(path, { ...de, cookie: m.cookie, country: "FR" });
      expect(res.headers.get("Location") ?? "", path).not.toMatch(/^\/age-check/);
    }

    const req = await openRequest(m.cookie);
    expect(req.clientId).toBe("redirect_uri:http://de.localhost/age-check/response");
    const ok = await respond(await present("valid", req), req);
    expect(ok.status).toBe(200);
    // The same-device link's answer sends the app's browser back with a response_code (OpenID4VP 1.0).
    const { redirect_uri } = (await ok.json()) as { redirect_uri: string };
    expect(redirect_uri).toMatch(/^http:\/\/de\.localhost\/age-check\?next=%2Fmembers&response_code=[\w-]{22}$/);
    expect((await get("/members", { ...de, cookie: m.cookie, country: "FR" })).status).toBe(200);
    // Continue returns to where the member was.
    const cont = await post("/age-check", { state: req.id, next: "/members?page=2" }, { ...de, cookie: m.cookie });
    expect(cont.status).toBe(302);
    expect(cont.headers.get("Location")).toBe("/members?page=2");
    // Only same-site paths.
    const away = await post("/age-check", { state: req.id, next: "//evil.test/x" }, { ...de, cookie: m.cookie });
    expect(away.headers.get("Location")).toBe("/members");
  });

  it("a proof is honoured on every later session until its validity ends (controlled clock)", async () => {
    const start = Date.now() - 400 * DAY_MS;
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const m = await herzklangMember();
    const req = await openRequest(m.cookie);
    expect((await respond(await present("valid", req), req)).status).toBe(200);

    vi.setSystemTime(start + 364 * DAY_MS);
    const later = await sessionCookie(m.id);
    expect((await get("/members", { ...de, cookie: later, country: "IT" })).status).toBe(200);

    vi.setSystemTime(start + 366 * DAY_MS);
    const after = await sessionCookie(m.id);
    const asked = await get("/members", { ...de, cookie: after, country: "IT" });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toMatch(/^\/age-check\?next=/);
  });

  it("a replayed presentation is refused: on its own request and on another one; nothing more stored", async () => {
    const a = await herzklangMember();
    const reqA = await openRequest(a.cookie);
    const presentation = await present("valid", reqA);
    expect((await respond(presentation, reqA)).status).toBe(200);
    expect(await proofs(a.id)).toBe(1);

    const again = await respond(presentation, reqA);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_request" });

    const b = await herzklangMember();
    const reqB = await openRequest(b.cookie);
    const stolen = await respond(presentation, reqB);
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toEqual({ error: "invalid_request", error_description: "nonce" });
    expect(await proofs(b.id)).toBe(0);
    expect((await get("/members", { ...de, cookie: b.cookie, country: "FR" })).status).toBe(302);
  });

  it("the console counts checks started, passed and refused per brand and country, each once", async () => {
    const figures = async () =>
      (await ageCheckFigures(env.DB, HERZKLANG)).find((r) => r.country === "GB") ?? {
        started: 0,
        passed: 0,
        refused: 0,
      };
    const before = await figures();
    const a = await herzklangMember();
    const req = await openRequest(a.cookie, "GB");
    await openRequest(a.cookie, "GB"); // a reload shows the same request: no second start
    const presentation = await present("valid", req);
    await respond(presentation, req);
    await respond(presentation, req); // the replay counts nothing
    const b = await herzklangMember();
    const reqB = await openRequest(b.cookie, "GB");
    await respond(await present("under_18", reqB), reqB);
    const after = await figures();
    expect([after.started - before.started, after.passed - before.passed, after.refused - before.refused]).toEqual([
      2, 1, 1,
    ]);
  });

  it("a wrong state, a malformed or a huge body is a 4xx and stores nothing", async () => {
    const m = await herzklangMember();
    const req = await openRequest(m.cookie);
    const valid = await present("valid", req);

    expect((await respond(valid, { state: "no-such-state.s" })).status).toBe(400);
    expect((await respond(valid, { state: "" })).status).toBe(400);
    const json = await SELF.fetch("http://de.localhost/age-check/response", {
      method: "POST",
      headers: { Host: "de.localhost", "Content-Type": "application/json" },
      body: JSON.stringify({ vp_token: { av: [valid] }, state: req.state }),
    });
    expect(json.status).toBe(400);
    const huge = await post("/age-check/response", { vp_token: "x".repeat(64 * 1024), state: req.state }, de);
    expect(huge.status).toBe(413);
    expect(await statusOf(req.state)).toBe("pending");
    expect(await proofs(m.id)).toBe(0);

    // Not the DCQL shape: refused (the request is spent), nothing stored.
    const bad = await post("/age-check/response", { vp_token: '{"av":"not-a-list"}', state: req.state }, de);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "invalid_request", error_description: "malformed" });
    expect(await proofs(m.id)).toBe(0);
    // A GET is no answer.
    expect((await get("/age-check/response", de)).status).toBe(405);
  });

  it("an under-18 answer is refused and the member is told why after Continue, in their language", async () => {
    const m = await herzklangMember();
    const req = await openRequest(m.cookie);
    const refused = await respond(await present("under_18", req), req);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "invalid_request", error_description: "under_18" });
    expect(await statusOf(req.state)).toBe("refused");

    const cont = await post(
      "/age-check",
      { state: req.id, next: "/members" },
      { ...de, cookie: m.cookie, country: "FR" },
    );
    expect(cont.status).toBe(200);
    const html = await cont.text();
    expect(html).toContain(deAge.refused.under_18);
    expect(await proofs(m.id)).toBe(0);
    // A fresh request is shown to try again.
    expect(html).not.toContain(`state" value="${req.id}"`);

    // Before the app answered: "waiting", nothing passes.
    const req2 = await openRequest(m.cookie);
    const waiting = await post(
      "/age-check",
      { state: req2.id, next: "/members" },
      { ...de, cookie: m.cookie, country: "FR" },
    );
    expect(await waiting.text()).toContain(deAge.waiting);
  });

  it("an expired attestation and an untrusted issuer are refused with their reasons", async () => {
    for (const [answer, reason] of [
      ["expired", "expired"],
      ["wrong_issuer", "issuer"],
    ] as const) {
      const m = await herzklangMember();
      const req = await openRequest(m.cookie);
      const res = await respond(await present(answer, req), req);
      expect(await res.json()).toEqual({ error: "invalid_request", error_description: reason });
      expect(await proofs(m.id)).toBe(0);
      // Back on the page (as the app's return or a reload): the reason, once, with a fresh request.
      const back = await get("/age-check?next=%2Fmembers", { ...de, cookie: m.cookie, country: "FR" });
      expect(await back.text()).toContain(deAge.refused[reason]);
      const again = await get("/age-check?next=%2Fmembers", { ...de, cookie: m.cookie, country: "FR" });
      expect(await again.text()).not.toContain(deAge.refused[reason]);
    }
  });

  it("before_photos gates the chat, not the members area; an off brand is unaffected", async () => {
    await setMode("before_photos");
    const m = await herzklangMember();
    expect((await get("/members", { ...de, cookie: m.cookie, country: "FR" })).status).toBe(200);
    const chats = await get("/chats", { ...de, cookie: m.cookie, country: "FR" });
    expect(chats.status).toBe(302);
    expect(chats.headers.get("Location")).toBe("/age-check?next=%2Fchats");

    await setMode("off");
    expect((await get("/chats", { ...de, cookie: m.cookie, country: "FR" })).status).toBe(200);
    expect((await get("/members", { ...de, cookie: m.cookie, country: "FR" })).status).toBe(200);
    // The page itself sends back where it was when the brand does not ask.
    const page = await get("/age-check?next=%2Fchats", { ...de, cookie: m.cookie, country: "FR" });
    expect(page.headers.get("Location")).toBe("/chats");

    // Amora asks nobody.
    const amora = await createMember({ country: "FR" });
    expect((await get("/members", { cookie: await sessionCookie(amora.id), country: "FR" })).status).toBe(200);
  });

  it("before_photos: a paying member without a proof sees others' non-main photos blurred, with a proof in full", async () => {
    await setMode("before_photos");
    const owner = await createMember({ brandId: HERZKLANG, country: "DE" });
    const [main, second] = [`age-main-${owner.id}`, `age-second-${owner.id}`];
    await env.DB.batch([
      photoRow(owner.id, main),
      photoRow(owner.id, second),
      env.DB.prepare("UPDATE profiles SET main_photo_id = ?2 WHERE user_id = ?1").bind(owner.id, main),
    ]);
    for (const id of [main, second]) {
      for (const v of ["full", "thumb", "blur"] as const) await env.PHOTOS.put(photoKey(id, v), v);
    }
    // A profile in NL: arriving from NL, not asked (a German profile would be, from anywhere).
    const viewer = await createMember({ brandId: HERZKLANG, country: "NL", paidUser: true });
    const cookie = await sessionCookie(viewer.id);
    const variant = async (id: string, country: string) =>
      (await get(`/photos/${id}/full`, { ...de, cookie, country })).headers.get("X-Photo-Variant");
    expect(await variant(main, "FR")).toBe("full"); // a public main photo is the public card
    expect(await variant(second, "FR")).toBe("blur");
    expect(await variant(second, "NL")).toBe("full");
    const req = await openRequest(cookie);
    expect((await respond(await present("valid", req), req)).status).toBe(200);
    expect(await variant(second, "FR")).toBe("full");
  });

  it("a visitor gets an age cookie of its own, and its proof counts for that browser only", async () => {
    const first = await get("/age-check?next=%2Fmembers", { ...de, country: "FR" });
    expect(first.status).toBe(302);
    const cookie = first.headers.get("Set-Cookie")!.split(";")[0]!;
    expect(cookie).toMatch(/^age_v=/);
    const req = await openRequest(cookie);
    expect((await respond(await present("valid", req), req)).status).toBe(200);
    const subject = await env.DB.prepare(
      "SELECT subject FROM age_proofs WHERE subject LIKE 'v:%' ORDER BY proved_at DESC",
    ).first<{
      subject: string;
    }>();
    // Only a hash of the cookie is kept, never the cookie itself.
    expect(subject!.subject).not.toContain(cookie.slice("age_v=".length));
  });
});

describe("the gate's cost for a member", () => {
  beforeEach(() => setMode("before_members_area"));
  afterEach(() => vi.useRealTimers());

  const brand = {
    id: HERZKLANG,
    ageCheck: "before_members_area" as const,
    ageCheckCountries: ["FR"],
    ageCheckDays: 365,
  };
  // A D1 that fails any use: the gate must decide from the member the session read brought.
  const noDb = new Proxy({} as D1Database, {
    get: () => {
      throw new Error("the gate read D1");
    },
  });
  const members = new Request("http://de.localhost/members");

  it("a verified member costs no read; an unverified or expired one is sent to the check", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(
      ageGate(members, { DB: noDb }, { brand, member: { id: "m", ageProofUntil: now + 60 }, country: "FR" }),
    ).resolves.toBeUndefined();
    for (const ageProofUntil of [null, now - 1]) {
      const thrown = await ageGate(members, { DB: noDb }, { brand, member: { id: "m", ageProofUntil }, country: "FR" })
        .then(() => null)
        .catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).headers.get("Location")).toBe("/age-check?next=%2Fmembers");
    }
  });

  it("the proof read with the session ends when its validity does, within the same session (controlled clock)", async () => {
    await setMode("before_members_area", ["DE", "FR", "IT", "GB"], 1);
    const start = Date.now() - 10 * DAY_MS;
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const m = await herzklangMember();
    const req = await openRequest(m.cookie);
    expect((await respond(await present("valid", req), req)).status).toBe(200);
    vi.setSystemTime(start + DAY_MS - 60_000);
    expect((await get("/members", { ...de, cookie: m.cookie, country: "FR" })).status).toBe(200);
    vi.setSystemTime(start + DAY_MS + 60_000);
    const asked = await get("/members", { ...de, cookie: m.cookie, country: "FR" });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe("/age-check?next=%2Fmembers");
  });
});

describe("a browser that refuses cookies", () => {
  beforeEach(() => setMode("before_members_area"));

  it("is told that the check needs a cookie, in its language, instead of being redirected again", async () => {
    const first = await get("/age-check?next=%2Fmembers", { ...de, country: "FR" });
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/age-check?next=%2Fmembers&c=1");
    expect(first.headers.get("Set-Cookie")).toMatch(/^age_v=/);
    // The cookie did not come back: the page says why, with a link to try again, and no second redirect.
    const refused = await get(first.headers.get("Location")!, { ...de, country: "FR" });
    expect(refused.status).toBe(200);
    const html = await refused.text();
    expect(html).toContain(deAge.cookies);
    expect(html).toContain('href="/age-check?next=%2Fmembers"');
    expect(html).not.toContain("av://");
    // With the cookie back, the marked address shows the request as usual.
    const cookie = first.headers.get("Set-Cookie")!.split(";")[0]!;
    const page = await get(first.headers.get("Location")!, { ...de, cookie, country: "FR" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("av://");
  });
});

describe("a visitor's proof at log-in and sign-up", () => {
  beforeEach(() => setMode("before_members_area"));

  /** A visitor from FR on Herzklang proves 18+; returns its age cookie and the proof row. */
  async function provenVisitor() {
    const first = await get("/age-check?next=%2Fmembers", { ...de, country: "FR" });
    const cookie = first.headers.get("Set-Cookie")!.split(";")[0]!;
    const req = await openRequest(cookie);
    expect((await respond(await present("valid", req), req)).status).toBe(200);
    const row = await env.DB.prepare(
      "SELECT subject, method, proved_at, valid_until FROM age_proofs WHERE subject LIKE 'v:%' ORDER BY rowid DESC",
    ).first<{ subject: string; method: string; proved_at: number; valid_until: number }>();
    return { cookie, row: row! };
  }

  const proofOf = (subject: string) =>
    env.DB.prepare("SELECT method, proved_at, valid_until FROM age_proofs WHERE subject = ?1")
      .bind(subject)
      .first<{ method: string; proved_at: number; valid_until: number }>();

  it("log-in: the visitor's proof becomes the member's, once, with its date and validity; the visitor's is gone", async () => {
    const { cookie, row } = await provenVisitor();
    const m = await memberWithPassword({ brandId: HERZKLANG, country: "DE", language: "de" });
    const login = await send("/login", { email: m.email, password: PASSWORD }, { host: de.host, cookie });
    expect(login.status).toBe(302);
    // The visitor cookie is cleared and nothing links it to the member any more.
    expect(login.headers.getSetCookie().some((c) => c.startsWith("age_v=;") && /Max-Age=0/.test(c))).toBe(true);
    expect(await proofOf(row.subject)).toBeNull();
    expect(await proofOf(m.id)).toEqual({ method: row.method, proved_at: row.proved_at, valid_until: row.valid_until });
    const member = cookiesOf(login);
    expect((await get("/members", { ...de, cookie: member, country: "FR" })).status).toBe(200);

    // Once: another member logging in with the same (old) visitor cookie gets nothing.
    const other = await memberWithPassword({ brandId: HERZKLANG, country: "DE", language: "de" });
    const again = await send("/login", { email: other.email, password: PASSWORD }, { host: de.host, cookie });
    expect(again.status).toBe(302);
    expect(await proofOf(other.id)).toBeNull();
    const asked = await get("/members", { ...de, cookie: cookiesOf(again), country: "FR" });
    expect(asked.headers.get("Location")).toBe("/age-check?next=%2Fmembers");
  });

  it("sign-up: the new member starts with the visitor's proof", async () => {
    const { cookie, row } = await provenVisitor();
    const form = signupForm();
    const res = await signUp(form, { host: de.host, cookie });
    expect(res.status).toBe(302);
    const user = await env.DB.prepare("SELECT id FROM users WHERE email = ?1").bind(form.email).first<{ id: string }>();
    expect(await proofOf(user!.id)).toEqual({
      method: row.method,
      proved_at: row.proved_at,
      valid_until: row.valid_until,
    });
    expect(await proofOf(row.subject)).toBeNull();
  });

  it("an expired visitor proof is not carried; a longer member proof is kept", async () => {
    const { cookie, row } = await provenVisitor();
    await env.DB.prepare("UPDATE age_proofs SET valid_until = unixepoch() - 1 WHERE subject = ?1")
      .bind(row.subject)
      .run();
    const m = await memberWithPassword({ brandId: HERZKLANG, country: "DE", language: "de" });
    await send("/login", { email: m.email, password: PASSWORD }, { host: de.host, cookie });
    expect(await proofOf(m.id)).toBeNull();

    const second = await provenVisitor();
    const longer = second.row.valid_until + 1000;
    await env.DB.prepare(
      "INSERT INTO age_proofs (subject, method, proved_at, valid_until) VALUES (?1, 'eu_av_app', 1, ?2)",
    )
      .bind(m.id, longer)
      .run();
    await send("/login", { email: m.email, password: PASSWORD }, { host: de.host, cookie: second.cookie });
    expect((await proofOf(m.id))!.valid_until).toBe(longer);
    expect(await proofOf(second.row.subject)).toBeNull();
  });
});
