/**
 * The Digital Credentials API path of the age check (ISO 18013-7 Annex C, `org-iso-mdoc`; decisions
 * 184, 185): the page offers a DeviceRequest and an EncryptionInfo with the request's reader key; the
 * wallet (here the test issuer) answers with an HPKE-sealed DeviceResponse bound to the site's origin
 * in the SessionTranscript; the page posts it to its own action, which verifies it and stores the proof
 * once. Refused: another origin, a replay (same or another request), under 18, someone else's
 * request, malformed or huge answers.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { presentTestAttestationDc, type WalletAnswer } from "../../app/lib/age/test-issuer.server";
import { loadTestIssuer } from "../../app/models/age-check.server";
import { encodeCbor } from "../../app/lib/age/cbor.server";
import { encryptionInfo, hpkeOpen, hpkeSeal, newReaderKey, readerKeyPair } from "../../app/lib/age/dcapi.server";
import deAge from "../../locales/de/age.json";

const HERZKLANG = 2;
const de = { host: "de.localhost" };
const ORIGIN = "http://de.localhost";

beforeEach(async () => {
  await env.DB.prepare("UPDATE brands SET age_check = 'before_members_area', age_check_countries = ?2 WHERE id = ?1")
    .bind(HERZKLANG, JSON.stringify(["DE", "FR", "IT", "GB"]))
    .run();
});

async function member() {
  const m = await createMember({ brandId: HERZKLANG, country: "DE", language: "de" });
  return { ...m, cookie: await sessionCookie(m.id) };
}

/** The page's request, and the EncryptionInfo it hands to the browser's API (checked to be in the page). */
async function openDcRequest(cookie: string) {
  const res = await get("/age-check?next=%2Fmembers", { ...de, cookie, country: "FR" });
  expect(res.status).toBe(200);
  const html = await res.text();
  // The page's own state (the app's link carries it with its flow's suffix).
  const state = /name="state" value="([^"]+)"/.exec(html)![1]!;
  const row = await env.DB.prepare("SELECT nonce, dc_key FROM age_requests WHERE id = ?1")
    .bind(state)
    .first<{ nonce: string; dc_key: string }>();
  const info = encryptionInfo(row!.nonce, JSON.parse(row!.dc_key) as JsonWebKey);
  expect(html).toContain(info);
  expect(html).toContain("org-iso-mdoc");
  // The private key never leaves the server.
  expect(html).not.toContain((JSON.parse(row!.dc_key) as JsonWebKey).d);
  return { state, info };
}

async function answer(a: WalletAnswer, info: string, origin = ORIGIN) {
  return presentTestAttestationDc(await loadTestIssuer(env.DB), a, { encryptionInfo: info, origin, now: new Date() });
}

const submit = (cookie: string, state: string, response: string) =>
  post("/age-check", { intent: "dc", state, next: "/members", response }, { ...de, cookie, country: "FR" });

async function proofs(subject: string) {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM age_proofs WHERE subject = ?1")
    .bind(subject)
    .first<{ n: number }>())!.n;
}
const statusOf = async (state: string) =>
  (await env.DB.prepare("SELECT status, dc_key FROM age_requests WHERE id = ?1")
    .bind(state)
    .first<{ status: string; dc_key: string | null }>())!;

const text = async (res: Response) => (await res.text()).replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"');

describe("age check over the Digital Credentials API (Annex C)", () => {
  it("HPKE (DHKEM P-256, HKDF-SHA256, AES-128-GCM) opens what it sealed, only with the same info", async () => {
    const pair = await readerKeyPair(await newReaderKey());
    const msg = new TextEncoder().encode("DeviceResponse");
    const info = encodeCbor([null, null, ["dcapi", new Uint8Array(32)]]);
    const { enc, cipherText } = await hpkeSeal(pair.publicKey, info, msg);
    expect(enc.length).toBe(65);
    expect(new TextDecoder().decode(await hpkeOpen(pair, enc, info, cipherText))).toBe("DeviceResponse");
    await expect(hpkeOpen(pair, enc, encodeCbor("other"), cipherText)).rejects.toThrow();
  });

  it("a valid answer for this origin passes once: the member lands where they were going", async () => {
    const m = await member();
    const { state, info } = await openDcRequest(m.cookie);
    const response = await answer("valid", info);
    const ok = await submit(m.cookie, state, response);
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/members");
    expect(await proofs(m.id)).toBe(1);
    // The reader key goes with the answer.
    expect(await statusOf(state)).toEqual({ status: "used", dc_key: null });
    expect((await get("/members", { ...de, cookie: m.cookie, country: "FR" })).status).toBe(200);

    // Replayed on the same request: it is spent, nothing more is stored (the member, proven, just goes on).
    const stored = await env.DB.prepare("SELECT proved_at, valid_until FROM age_proofs WHERE subject = ?1")
      .bind(m.id)
      .first();
    await submit(m.cookie, state, response);
    expect(
      await env.DB.prepare("SELECT proved_at, valid_until FROM age_proofs WHERE subject = ?1").bind(m.id).first(),
    ).toEqual(stored);
    expect(await statusOf(state)).toEqual({ status: "used", dc_key: null });
    // Replayed by another member on their own request: sealed for another key and transcript.
    const b = await member();
    const reqB = await openDcRequest(b.cookie);
    const stolen = await submit(b.cookie, reqB.state, response);
    expect(await text(stolen)).toContain(deAge.refused.nonce);
    expect(await proofs(b.id)).toBe(0);
    expect((await statusOf(reqB.state)).status).toBe("refused");
  });

  it("an answer given to another origin is refused and stores nothing", async () => {
    const m = await member();
    const { state, info } = await openDcRequest(m.cookie);
    const res = await submit(m.cookie, state, await answer("valid", info, "https://evil.example"));
    expect(res.status).toBe(200);
    expect(await text(res)).toContain(deAge.refused.nonce);
    expect(await proofs(m.id)).toBe(0);
    expect((await get("/members", { ...de, cookie: m.cookie, country: "FR" })).status).toBe(302);
  });

  it("under 18, expired and untrusted issuers are refused with their reasons", async () => {
    for (const [a, reason] of [
      ["under_18", "under_18"],
      ["expired", "expired"],
      ["wrong_issuer", "issuer"],
    ] as const) {
      const m = await member();
      const { state, info } = await openDcRequest(m.cookie);
      const res = await submit(m.cookie, state, await answer(a, info));
      expect(await text(res)).toContain(deAge.refused[reason]);
      expect(await proofs(m.id)).toBe(0);
      expect(await statusOf(state)).toEqual({ status: "refused", dc_key: null });
    }
  });

  it("someone else's request, a malformed or a huge answer is refused; the request stays untouched where it is not ours", async () => {
    const a = await member();
    const reqA = await openDcRequest(a.cookie);
    const valid = await answer("valid", reqA.info);
    const b = await member();
    // B posts A's answer to A's request: not B's request, nothing changes.
    const foreign = await submit(b.cookie, reqA.state, valid);
    expect(await text(foreign)).toContain(deAge.expired);
    expect((await statusOf(reqA.state)).status).toBe("pending");
    expect(await proofs(a.id)).toBe(0);
    expect(await proofs(b.id)).toBe(0);

    const huge = await submit(a.cookie, reqA.state, "A".repeat(100 * 1024));
    expect(huge.status).toBe(413);
    expect((await statusOf(reqA.state)).status).toBe("pending");

    const garbage = await submit(a.cookie, reqA.state, "not-cbor");
    expect(await text(garbage)).toContain(deAge.refused.malformed);
    expect(await proofs(a.id)).toBe(0);
  });
});
