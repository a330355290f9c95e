/**
 * Age assurance (decision 185): where a brand asks a proof of 18+, the gate sends members
 * (and visitors) from the listed countries to /age-check; the EU age verification app (or, outside
 * production, the development wallet) answers an OpenID4VP request at /age-check/response; what is
 * kept is only "this subject proved 18+ on D by M, honoured until U".
 */
import { redirect } from "@remix-run/cloudflare";
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import type { AgeCheckMode } from "../../db/schema";
import { readCookie } from "~/lib/cookies.server";
import { isDeployed, type Env } from "~/lib/env";
import { randomId, sha256 } from "~/lib/password";
import { safeRedirect } from "~/lib/request.server";
import type { AgeRefusal } from "~/lib/age/mdoc.server";
import type { TestIssuer } from "~/lib/age/test-issuer.server";
import { WALLET_CHOICES } from "~/lib/age/wallet-choices";
import { usableTrustedRoots } from "./age-trust.server";

/** The verifier and the QR code, loaded by the check's own requests only (decision 234). */
const verifier = () => import("./age-verifier.server");

/**
 * The development wallet's test root: generated on first use and kept in D1 table app_keys as JSON; the
 * same on every later call. Here rather than beside the issuer, which loads on first use: the database
 * code it needs is loaded at start-up anyway (decision 234).
 */
export async function loadTestIssuer(d1: D1Database): Promise<TestIssuer> {
  const db = getDb(d1);
  const { appKeys } = schema;
  const stored = () => db.select({ value: appKeys.value }).from(appKeys).where(eq(appKeys.name, TEST_ISSUER_KEY)).get();
  let row = await stored();
  if (!row) {
    const value = await (await verifier()).newStoredIssuer();
    // Two isolates at once: the first insert wins and both use it.
    await db.insert(appKeys).values({ name: TEST_ISSUER_KEY, value }).onConflictDoNothing();
    row = await stored();
  }
  return (await verifier()).storedIssuer(row!.value);
}
const TEST_ISSUER_KEY = "age_test_issuer";

const { ageProofs, ageRequests, ageCheckCounts } = schema;

/** The one method there is today; a second one (a commercial provider) would be another AgeVerifier. */
export const EU_AV_METHOD = "eu_av_app";
/** A request's nonce is good for this long (the member scans, the app asks, the member consents). */
export const AGE_REQUEST_TTL_S = 10 * 60;
/** The doctype and claim of the EU proof-of-age attestation (av-doc-technical-specification, Annex A). */
export const AV_DOCTYPE = "eu.europa.ec.av.1";
export const AV_DCQL_ID = "av";
/** The direct_post body: a DeviceResponse is a few kilobytes; anything much larger is refused unread. */
export const AGE_RESPONSE_MAX_BYTES = 32 * 1024;
/** The subject of an under-18 refusal: whose it was is forgotten (decision 197). */
const FORGOTTEN_SUBJECT = "-";
/** The request this browser was last shown (its `state`): how an under-18 refusal finds its way back. */
export const AGE_SHOWN_COOKIE = "age_s";
/** The visitor's own age cookie (a random id; its hash is the proof's subject). */
export const AGE_VISITOR_COOKIE = "age_v";

/**
 * A second method plugs in here: it verifies what the member brings and says yes or why not. Today
 * only the EU app's OpenID4VP/mdoc presentation does (decision 185 names the candidates).
 */
export interface AgeVerifier {
  method: string;
  verify(
    input: string,
    request: { nonce: string; clientId: string; responseUri: string; now: Date },
  ): Promise<{ ok: true } | { ok: false; reason: AgeRefusal }>;
}

type BrandAge = { id: number; ageCheck: AgeCheckMode; ageCheckCountries: string[]; ageCheckDays: number };

/**
 * Network countries that name no country: Cloudflare's "unknown" and Tor. On a brand that checks age
 * anywhere, a visitor from there is asked too (decision 197): they could be in any listed country.
 */
const UNNAMED_COUNTRIES = new Set(["XX", "T1"]);

/**
 * Cheap: no D1 read. Whether this brand asks this visitor at all: the network's country is listed, or
 * names no country, or (a member) their profile's country is listed although they arrive through
 * another country's network (decision 197: the cautious answer).
 */
export function ageCheckApplies(brand: BrandAge, country: string, profileCountry?: string | null): boolean {
  if (brand.ageCheck === "off" || brand.ageCheckCountries.length === 0) return false;
  const listed = brand.ageCheckCountries;
  return (
    listed.includes(country) || UNNAMED_COUNTRIES.has(country) || (!!profileCountry && listed.includes(profileCountry))
  );
}

// Never gated in "before_members_area" (docs/product/screens.md §2's public pages): the landing, the landers'
// public cards, log-in, sign-up, static pages, the mailed links, and the check itself; for a member
// also log out, account deletion and the data export (decision 197). Photos have their own rule
// (photoNeedsProof); an API that resolves no member (webhooks, regions, the site-entry popup) never
// reaches the gate.
const OPEN_EXACT = new Set([
  "/api/logout.php",
  "/api/site-entry",
  "/settings/delete",
  "/settings/data",
  // The member's own notification channel: "something arrived" for their badges, as the open pages show them.
  "/ws/member",
  "/",
  "/login",
  "/signup",
  "/complete-signup",
  "/account-deleted",
  "/unsubscribe",
  "/lang-config",
  "/complaints",
  "/reactivate",
  "/manifest.webmanifest",
  "/offline",
  "/healthz",
  "/readyz",
  "/2257",
  // The prices, as a visitor must see them before signing up (a legal page in that sense).
  "/pricing",
]);
const OPEN_PREFIXES = [
  "/age-check",
  "/pages/",
  "/landers/",
  "/photos/",
  "/dev/",
  "/activate",
  // The sign-up's answer and its mailed link (decision 224).
  "/signup/",
  "/reset-password",
  "/mail-change",
  "/statement/",
  "/locales/",
  "/sandbox/",
];
// The landers' public cards and their sign-up (/members/{id}/landing, landing2, landing3, signup).
const LANDER_CARD = /^\/members\/[^/]+\/(landing[23]?|signup)(\/|$)/;
// The chat's pages and every other way into a conversation: its socket and the chat APIs.
const CHAT = /^\/(chats(\/|$)|members\/[^/]+\/chat$|ws\/chat\/|api\/chats?\.php$)/;
// Answered with a 403 (JSON), not a redirect: a socket or a script's API call cannot follow one.
const NO_REDIRECT = /^\/(api|ws)\//;

/** The page a request is for: a single-fetch `.data` request counts as its page. */
function pagePath(pathname: string): string {
  const p = pathname.replace(/\.data$/, "").replace(/\/+$/, "");
  return p === "" || p === "/_root" ? "/" : p;
}

/** Whether the mode gates this page (photos themselves are gated in their own route: photoNeedsProof). */
export function isGatedPath(mode: AgeCheckMode, pathname: string): boolean {
  const p = pagePath(pathname);
  if (mode === "off") return false;
  if (mode === "before_photos") return CHAT.test(p);
  if (OPEN_EXACT.has(p) || LANDER_CARD.test(p)) return false;
  return !OPEN_PREFIXES.some((prefix) => p === prefix.replace(/\/$/, "") || p.startsWith(prefix));
}

/** Whose proof counts: the member, or this browser's visitor cookie (null: it has none yet). */
export async function ageSubject(request: Request, memberId: string | null): Promise<string | null> {
  if (memberId) return memberId;
  const v = readCookie(request, AGE_VISITOR_COOKIE);
  return v && /^[A-Za-z0-9_-]{16,64}$/.test(v) ? `v:${await sha256(v)}` : null;
}

const nowS = () => Math.floor(Date.now() / 1000);

/**
 * Log-in or sign-up (startSession): a visitor's valid proof becomes the member's, once. It keeps its
 * method, date and validity (a later member proof is kept if it lasts longer); the visitor row goes
 * in the same batch, so nothing links the visitor to the member afterwards. Returns the Set-Cookie
 * that clears the visitor cookie, or null when the browser had none (then no D1 work at all).
 */
export async function carryVisitorProof(d1: D1Database, request: Request, memberId: string): Promise<string | null> {
  const visitor = await ageSubject(request, null);
  if (!visitor) return null;
  const db = getDb(d1);
  await db.batch([
    db
      .insert(ageProofs)
      .select(
        db
          .select({
            subject: sql<string>`${memberId}`.as("subject"),
            method: ageProofs.method,
            provedAt: ageProofs.provedAt,
            validUntil: ageProofs.validUntil,
          })
          .from(ageProofs)
          .where(and(eq(ageProofs.subject, visitor), gt(ageProofs.validUntil, nowS()))),
      )
      .onConflictDoUpdate({
        target: ageProofs.subject,
        set: {
          method: sql`excluded.method`,
          provedAt: sql`excluded.proved_at`,
          validUntil: sql`excluded.valid_until`,
        },
        setWhere: sql`excluded.valid_until > ${ageProofs.validUntil}`,
      }),
    db.delete(ageProofs).where(eq(ageProofs.subject, visitor)),
  ]);
  return `${AGE_VISITOR_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
}

export async function hasValidProof(d1: D1Database, subject: string, at = nowS()): Promise<boolean> {
  const row = await getDb(d1)
    .select({ subject: ageProofs.subject })
    .from(ageProofs)
    .where(and(eq(ageProofs.subject, subject), gt(ageProofs.validUntil, at)))
    .get();
  return !!row;
}

/** The member as the session read them: their proof's end came with it (no read of its own). */
type GateMember = { id: string; ageProofUntil: number | null; country?: string } | null;

/** Whether this browser's member (from the session read, no D1 read) or visitor (one read) has a valid proof. */
async function proven(request: Request, env: Pick<Env, "DB">, member: GateMember): Promise<boolean> {
  if (member) return member.ageProofUntil !== null && member.ageProofUntil > nowS();
  const subject = await ageSubject(request, null);
  return !!subject && (await hasValidProof(env.DB, subject));
}

/** The member of this refusal's JSON (an API call or a socket): not the sign-out "authentication_required". */
export const AGE_CHECK_REQUIRED = "age_check_required";

/**
 * The gate, run where a member (or visitor) is resolved for a request (getMember, so every loader,
 * action, single-fetch `.data` request, API endpoint and socket upgrade): null when the request may
 * go on, else the answer to give instead. A page, a form post or a `.data` request goes to
 * /age-check and comes back to the page afterwards (a thrown redirect: Remix's single fetch turns it
 * into its own redirect for `.data`); an API call or a socket upgrade gets 403 JSON. No D1 read
 * unless the brand asks this visitor and the path is gated, and none for a member (their proof came
 * with the session read). An API or socket without a member is left to its own 401/403.
 */
export async function ageGateRefusal(
  request: Request,
  env: Pick<Env, "DB">,
  o: { brand: BrandAge; member: GateMember; country: string },
): Promise<Response | null> {
  if (!ageCheckApplies(o.brand, o.country, o.member?.country)) return null;
  const url = new URL(request.url);
  if (!isGatedPath(o.brand.ageCheck, url.pathname)) return null;
  const noRedirect = NO_REDIRECT.test(url.pathname);
  if (noRedirect && !o.member) return null;
  if (await proven(request, env, o.member)) return null;
  if (noRedirect) return Response.json({ error: AGE_CHECK_REQUIRED, redirect: "/age-check" }, { status: 403 });
  // Back to the page itself: without single fetch's `_routes` and the action's `index` marker.
  const search = new URLSearchParams(url.search);
  search.delete("_routes");
  search.delete("index");
  const query = search.toString();
  const next = pagePath(url.pathname) + (query ? `?${query}` : "");
  return redirect(`/age-check?next=${encodeURIComponent(next)}`);
}

/** The gate as a throw (the refusal above), for a caller that has the brand, member and country at hand. */
export async function ageGate(
  request: Request,
  env: Pick<Env, "DB">,
  o: { brand: BrandAge; member: GateMember; country: string },
): Promise<void> {
  const refusal = await ageGateRefusal(request, env, o);
  if (refusal) throw refusal;
}

/** before_photos: an unblurred or private photo for someone from a listed country needs a proof. */
export async function photoNeedsProof(
  request: Request,
  env: Pick<Env, "DB">,
  o: { brand: BrandAge; member: GateMember; country: string },
): Promise<boolean> {
  if (o.brand.ageCheck !== "before_photos" || !ageCheckApplies(o.brand, o.country, o.member?.country)) return false;
  return !(await proven(request, env, o.member));
}

// ─── The request (OpenID4VP, request by value) ───

export type AgeRequest = typeof ageRequests.$inferSelect;

/** One more check started for this brand and country today (the console's dashboard). */
const countStarted = (d1: D1Database, r: { brandId: number; country: string }) =>
  getDb(d1)
    .insert(ageCheckCounts)
    .values({ brandId: r.brandId, country: r.country, day: new Date().toISOString().slice(0, 10), started: 1 })
    .onConflictDoUpdate({
      target: [ageCheckCounts.brandId, ageCheckCounts.country, ageCheckCounts.day],
      set: { started: sql`${ageCheckCounts.started} + 1` },
    });

/**
 * The subject's open request, or a fresh one (a reload of the page shows the same QR code while it
 * is good). When the latest answer was refused (and is recent), its reason comes along once, so a
 * member who returns from the app learns why; an under-18 refusal names no subject (decision 197), so
 * it is found by the request this browser was last shown (`shownState`, its own cookie). Counts a
 * check started per brand and country.
 */
export async function openRequest(
  d1: D1Database,
  o: { subject: string; brandId: number; country: string; next: string; shownState?: string | null },
): Promise<{ req: AgeRequest; refused: AgeRefusal | null }> {
  const db = getDb(d1);
  const at = nowS();
  const shown = o.shownState
    ? await db
        .select({ status: ageRequests.status, reason: ageRequests.reason, expiresAt: ageRequests.expiresAt })
        .from(ageRequests)
        .where(and(eq(ageRequests.id, o.shownState), eq(ageRequests.subject, FORGOTTEN_SUBJECT)))
        .get()
    : undefined;
  const forgotten = shown?.status === "refused" && shown.expiresAt > at ? (shown.reason as AgeRefusal) : null;
  const latest = await db
    .select()
    .from(ageRequests)
    .where(and(eq(ageRequests.subject, o.subject), eq(ageRequests.brandId, o.brandId)))
    .orderBy(desc(ageRequests.createdAt), sql`rowid DESC`)
    .get();
  if (!forgotten && latest?.status === "pending" && latest.expiresAt > at + 60 && latest.next === o.next) {
    return { req: latest, refused: null };
  }
  const refused =
    forgotten ?? (latest?.status === "refused" && latest.expiresAt > at ? (latest.reason as AgeRefusal) : null);
  const fresh: AgeRequest = {
    id: randomId(16),
    nonce: randomId(24),
    subject: o.subject,
    brandId: o.brandId,
    country: o.country,
    next: o.next,
    status: "pending",
    reason: null,
    // The Digital Credentials API path's reader key: the same request, answered from this browser.
    dcKey: JSON.stringify(await (await verifier()).newReaderKey()),
    responseCode: null,
    createdAt: at,
    expiresAt: at + AGE_REQUEST_TTL_S,
  };
  await db.batch([db.insert(ageRequests).values(fresh), countStarted(d1, o)]);
  return { req: fresh, refused };
}

/** The response_uri of a brand's site; the client id is its `redirect_uri:` form. */
export const responseUriOf = (origin: string) => `${origin}/age-check/response`;
export const clientIdOf = (responseUri: string) => `redirect_uri:${responseUri}`;

/** The DCQL query: one ISO mdoc of the proof-of-age doctype, only its age_over_18. */
export function dcqlQuery() {
  return {
    credentials: [
      {
        id: AV_DCQL_ID,
        format: "mso_mdoc",
        meta: { doctype_value: AV_DOCTYPE },
        claims: [{ path: [AV_DOCTYPE, "age_over_18"] }],
      },
    ],
  };
}

/**
 * How the wallet was reached (decision 198). `same_device`: the link on this device; the answer is
 * completed only in the browser the wallet sends back, with the response_code of the redirect
 * (OpenID4VP 1.0, session fixation). `cross_device`: the QR code scanned with another device; the app
 * gets no redirect and "Continue" in this browser completes it (the protection cannot apply there).
 */
export type AgeFlow = "same_device" | "cross_device";
const FLOW_SUFFIX: Record<AgeFlow, string> = { same_device: ".s", cross_device: ".x" };
/** The `state` the wallet gets: the request id and the flow it was shown for. */
export const walletState = (id: string, flow: AgeFlow) => id + FLOW_SUFFIX[flow];
function parseWalletState(state: string): { id: string; flow: AgeFlow } | null {
  const m = /^([A-Za-z0-9_-]{1,64})\.([sx])$/.exec(state);
  return m ? { id: m[1]!, flow: m[2] === "s" ? "same_device" : "cross_device" } : null;
}

/**
 * The authorization request, by value as plain parameters (OpenID4VP 1.0 §5; the AV profile's own
 * example): the `redirect_uri:` client id prefix allows no signed request object, and the EU wallet
 * library refuses an unsigned one, so there is no `request` parameter.
 */
export function requestLink(origin: string, r: Pick<AgeRequest, "id" | "nonce">, flow: AgeFlow): string {
  const responseUri = responseUriOf(origin);
  return `av://?${new URLSearchParams({
    client_id: clientIdOf(responseUri),
    response_type: "vp_token",
    response_mode: "direct_post",
    response_uri: responseUri,
    nonce: r.nonce,
    state: walletState(r.id, flow),
    dcql_query: JSON.stringify(dcqlQuery()),
  })}`;
}

/**
 * The request a link carries, read as a wallet reads it (the development wallet): every parameter
 * once, the client id the `redirect_uri:` form of the response_uri, no request object; null otherwise.
 */
export function parseRequestLink(
  link: string,
): { clientId: string; responseUri: string; nonce: string; state: string } | null {
  try {
    const params = new URLSearchParams(link.includes("?") ? link.slice(link.indexOf("?") + 1) : link);
    const one = (name: string) => (params.getAll(name).length === 1 ? params.get(name) : null);
    if (params.has("request") || params.has("request_uri")) return null;
    const [clientId, responseUri, nonce, state] = ["client_id", "response_uri", "nonce", "state"].map(one);
    if (one("response_type") !== "vp_token" || one("response_mode") !== "direct_post") return null;
    if (!clientId || !responseUri || !nonce || !state || clientId !== clientIdOf(responseUri)) return null;
    JSON.parse(one("dcql_query") ?? "");
    return { clientId, responseUri, nonce, state };
  } catch {
    return null;
  }
}

// ─── The response (direct_post) ───

async function trustedRoots(env: Pick<Env, "DB" | "ENVIRONMENT">, at: number): Promise<Uint8Array[]> {
  // A stored list past its NextUpdate and grace period trusts no one (decision 198).
  const roots = await usableTrustedRoots(env.DB, at);
  // Outside production the development wallet's test root is trusted as well (docs: decision 185).
  if (!isDeployed(env)) roots.push((await loadTestIssuer(env.DB)).rootDer);
  return roots;
}

export type ResponseOutcome =
  | { status: 200; redirectTo: string | null }
  | { status: 400; error: "invalid_request"; reason?: AgeRefusal };

/** The vp_token's one presentation for our DCQL id, or null when the shape is anything else. */
function presentationOf(vpToken: string): string | null {
  try {
    const parsed = JSON.parse(vpToken) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
    const list = (parsed as Record<string, unknown>)[AV_DCQL_ID];
    if (!Array.isArray(list) || list.length !== 1 || typeof list[0] !== "string" || !list[0]) return null;
    return list[0];
  } catch {
    return null;
  }
}

/**
 * A wallet's answer to request `state`. The request must be pending and unexpired; the presentation is
 * verified against its nonce and our client id and response_uri. Shown as the QR code (cross-device):
 * in one batch the request goes pending → used (guarded) and only if that changed a row the proof is
 * stored. Shown as the link (same-device): it goes pending → answered with a fresh response_code that
 * only the redirect carries, and the proof is stored when that browser brings it (completeAnswer). A
 * replay finds the request used or answered (or another request's nonce) and stores nothing.
 */
export async function acceptResponse(
  env: Pick<Env, "DB" | "ENVIRONMENT">,
  origin: string,
  form: { vpToken: string | null; state: string | null },
): Promise<ResponseOutcome> {
  const wallet = form.state && form.state.length <= 66 ? parseWalletState(form.state) : null;
  if (!wallet || !form.vpToken) return { status: 400, error: "invalid_request" };
  const at = nowS();
  const req = await pendingRequest(env.DB, wallet.id, at);
  if (!req) return { status: 400, error: "invalid_request" };
  const presentation = presentationOf(form.vpToken);
  const responseUri = responseUriOf(origin);
  const result = presentation
    ? await (
        await verifier()
      ).verifyPresentation(presentation, {
        nonce: req.nonce,
        clientId: clientIdOf(responseUri),
        responseUri,
        now: new Date(at * 1000),
        trustedRoots: await trustedRoots(env, at),
      })
    : ({ ok: false, reason: "malformed" } as const);
  if (result.ok && wallet.flow === "same_device") return awaitRedirect(env, origin, req, at);
  return settle(env, req, result, at, null);
}

/** The answer to a same-device link holds for this long while its browser follows the redirect. */
const ANSWERED_TTL_S = 5 * 60;

/** pending → answered with the hash of a fresh response_code; the redirect carries the code itself. */
async function awaitRedirect(env: Pick<Env, "DB">, origin: string, req: AgeRequest, at: number) {
  const code = randomId(16);
  const flip = await getDb(env.DB)
    .update(ageRequests)
    .set({ status: "answered", responseCode: await sha256(code), dcKey: null, expiresAt: at + ANSWERED_TTL_S })
    .where(and(eq(ageRequests.id, req.id), eq(ageRequests.status, "pending"), gt(ageRequests.expiresAt, at)))
    .run();
  if (flip.meta.changes !== 1) return { status: 400, error: "invalid_request" } as const;
  const query = new URLSearchParams({ next: req.next, response_code: code });
  return { status: 200, redirectTo: `${origin}/age-check?${query}` } as const;
}

/**
 * The redirect of a same-device answer, in whichever browser the wallet opened: the proof is stored
 * only when this browser's subject made the request and brings its response_code (one batch, guarded
 * answered → used). Elsewhere nothing happens: a relayed request cannot credit its maker.
 */
export async function completeAnswer(
  request: Request,
  env: Pick<Env, "DB">,
  o: { memberId: string | null; code: string },
): Promise<{ ok: true; next: string } | { ok: false }> {
  const subject = await ageSubject(request, o.memberId);
  if (!subject || !/^[A-Za-z0-9_-]{16,64}$/.test(o.code)) return { ok: false };
  const at = nowS();
  const req = await getDb(env.DB)
    .select()
    .from(ageRequests)
    .where(and(eq(ageRequests.subject, subject), eq(ageRequests.responseCode, await sha256(o.code))))
    .get();
  if (!req || req.status !== "answered" || req.expiresAt <= at) return { ok: false };
  const stored = await settle(env, req, { ok: true }, at, "answered");
  return stored.status === 200 ? { ok: true, next: safeRedirect(req.next, "/members") } : { ok: false };
}

/** The request `state` while it can still be answered (pending, unexpired), else null. */
const pendingRequest = async (d1: D1Database, state: string, at: number) => {
  const req = await getDb(d1).select().from(ageRequests).where(eq(ageRequests.id, state)).get();
  return req && req.status === "pending" && req.expiresAt > at ? req : null;
};

/**
 * The Digital Credentials API answer (ISO 18013-7 Annex C), posted by this browser's own page: the
 * wallet's EncryptedResponse is opened with the request's reader key under the SessionTranscript of
 * this site's origin, then verified and settled like the app's direct_post. Only the subject's own
 * request is answered here.
 */
export async function acceptDcResponse(
  request: Request,
  env: Pick<Env, "DB" | "ENVIRONMENT">,
  origin: string,
  o: { memberId: string | null; state: string; response: string },
): Promise<ResponseOutcome> {
  const subject = await ageSubject(request, o.memberId);
  if (!subject || !o.state || o.state.length > 64 || !o.response) return { status: 400, error: "invalid_request" };
  const at = nowS();
  const req = await pendingRequest(env.DB, o.state, at);
  if (!req || req.subject !== subject || !req.dcKey) return { status: 400, error: "invalid_request" };
  const readerKey = JSON.parse(req.dcKey) as JsonWebKey;
  const { dcapiSessionTranscript, encryptionInfo, openDcResponse, verifyPresentation } = await verifier();
  const transcript = await dcapiSessionTranscript(encryptionInfo(req.nonce, readerKey), origin);
  const opened = await openDcResponse(o.response, { readerKey, transcript });
  const result = opened.ok
    ? await verifyPresentation(opened.deviceResponse, {
        transcript,
        now: new Date(at * 1000),
        trustedRoots: await trustedRoots(env, at),
      })
    : opened;
  return settle(env, req, result, at, null);
}

/**
 * A verified (or refused) answer to a pending request: in one batch the request goes pending → used
 * (guarded) and only if that changed a row the proof is stored; a refusal marks it refused with its
 * reason. `answered`: a same-device answer whose browser came back with its response_code.
 */
async function settle(
  env: Pick<Env, "DB">,
  req: AgeRequest,
  result: { ok: true } | { ok: false; reason: AgeRefusal },
  at: number,
  answered: "answered" | null,
): Promise<ResponseOutcome> {
  const db = getDb(env.DB);
  if (!result.ok) {
    await env.DB.batch([
      // An under-18 answer is kept beside neither the member nor the page they were opening (decision
      // 197): the row keeps its reason under its own random id only, which the member's Continue names.
      // oxlint-disable-next-line no-restricted-properties -- guards: pending → refused only from pending; the count follows on changes() = 1
      env.DB.prepare(
        `UPDATE age_requests SET status = 'refused', reason = ?2, dc_key = NULL,
           subject = CASE WHEN ?2 = 'under_18' THEN '${FORGOTTEN_SUBJECT}' ELSE subject END,
           next = CASE WHEN ?2 = 'under_18' THEN '/' ELSE next END
         WHERE id = ?1 AND status = 'pending'`,
      ).bind(req.id, result.reason),
      // oxlint-disable-next-line no-restricted-properties -- counted once, only when the refusal above changed the request
      env.DB.prepare(
        `INSERT INTO age_check_counts (brand_id, country, day, refused) SELECT ?1, ?2, ?3, 1 WHERE changes() = 1
         ON CONFLICT (brand_id, country, day) DO UPDATE SET refused = refused + 1`,
      ).bind(req.brandId, req.country, new Date(at * 1000).toISOString().slice(0, 10)),
    ]);
    return { status: 400, error: "invalid_request", reason: result.reason };
  }
  const brand = await db
    .select({ days: schema.brands.ageCheckDays })
    .from(schema.brands)
    .where(eq(schema.brands.id, req.brandId))
    .get();
  const validUntil = at + (brand?.days ?? 365) * 86_400;
  const [flip] = await env.DB.batch<unknown>([
    // oxlint-disable-next-line no-restricted-properties -- guards: the nonce is good once (pending → used, unexpired); the proof and count follow on changes() = 1
    env.DB.prepare(
      "UPDATE age_requests SET status = 'used', dc_key = NULL, response_code = NULL WHERE id = ?1 AND status = ?3 AND expires_at > ?2",
    ).bind(req.id, at, answered ?? "pending"),
    // oxlint-disable-next-line no-restricted-properties -- stored only when the request above flipped (changes() = 1), same batch
    env.DB.prepare(
      `INSERT INTO age_proofs (subject, method, proved_at, valid_until) SELECT ?1, ?2, ?3, ?4 WHERE changes() = 1
       ON CONFLICT (subject) DO UPDATE SET method = excluded.method, proved_at = excluded.proved_at, valid_until = excluded.valid_until`,
    ).bind(req.subject, EU_AV_METHOD, at, validUntil),
    // oxlint-disable-next-line no-restricted-properties -- counted once: only when the proof above was stored
    env.DB.prepare(
      `INSERT INTO age_check_counts (brand_id, country, day, passed) SELECT ?1, ?2, ?3, 1 WHERE changes() = 1
       ON CONFLICT (brand_id, country, day) DO UPDATE SET passed = passed + 1`,
    ).bind(req.brandId, req.country, new Date(at * 1000).toISOString().slice(0, 10)),
  ]);
  if ((flip as D1Result).meta.changes !== 1) return { status: 400, error: "invalid_request" };
  // The cross-device app gets no redirect (OpenID4VP 1.0: it would open this page on the phone); the
  // Digital Credentials API page goes on itself.
  return { status: 200, redirectTo: null };
}

export type CheckResult =
  | { kind: "passed"; next: string }
  | { kind: "refused"; reason: AgeRefusal }
  | { kind: "waiting" }
  /** The same-device answer came, but its redirect was not followed in this browser. */
  | { kind: "elsewhere" }
  | { kind: "expired" };

/** "Continue": what became of this subject's request (read on the server, so it works without JS). */
export async function checkRequest(d1: D1Database, subject: string, state: string): Promise<CheckResult> {
  const req = await getDb(d1)
    .select()
    .from(ageRequests)
    .where(and(eq(ageRequests.id, state), inArray(ageRequests.subject, [subject, FORGOTTEN_SUBJECT])))
    .get();
  if (await hasValidProof(d1, subject))
    return { kind: "passed", next: safeRedirect(req?.next ?? "/members", "/members") };
  if (!req) return { kind: "expired" };
  if (req.status === "refused") return { kind: "refused", reason: (req.reason ?? "malformed") as AgeRefusal };
  if (req.status === "answered") return { kind: "elsewhere" };
  if (req.expiresAt <= nowS()) return { kind: "expired" };
  return { kind: "waiting" };
}

/** A new visitor age cookie (only where the check applies and no member is logged in): its Set-Cookie value. */
function newVisitorCookie(): string {
  return `${AGE_VISITOR_COOKIE}=${randomId(24)}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${30 * 86_400}`;
}

// ─── The page ───

export type AgeCheckPage =
  | { kind: "done" }
  | { kind: "cookie"; setCookie: string }
  | {
      kind: "ask";
      state: string;
      /** Set-Cookie remembering this request for this browser (AGE_SHOWN_COOKIE). */
      shownCookie: string;
      link: string;
      qr: string;
      refused: AgeRefusal | null;
      /** The Digital Credentials API request (Annex C `org-iso-mdoc` data), when the request has a reader key. */
      dc: { protocol: string; deviceRequest: string; encryptionInfo: string } | null;
    };

/**
 * What /age-check shows: nothing (back to `next`) when the check does not apply or a proof is valid;
 * otherwise the subject's open request as a link and a QR code (SVG, rendered here: no client code).
 */
export async function ageCheckPage(
  request: Request,
  env: Pick<Env, "DB">,
  o: {
    brand: BrandAge;
    country: string;
    memberId: string | null;
    profileCountry?: string | null;
    next: string;
    origin: string;
  },
): Promise<AgeCheckPage> {
  if (!ageCheckApplies(o.brand, o.country, o.profileCountry)) return { kind: "done" };
  const subject = await ageSubject(request, o.memberId);
  if (!subject) return { kind: "cookie", setCookie: newVisitorCookie() };
  if (await hasValidProof(env.DB, subject)) return { kind: "done" };
  const { req, refused } = await openRequest(env.DB, {
    subject,
    brandId: o.brand.id,
    country: o.country,
    next: o.next,
    shownState: readCookie(request, AGE_SHOWN_COOKIE),
  });
  const link = requestLink(o.origin, req, "same_device");
  const { DC_PROTOCOL, deviceRequest, encryptionInfo, renderSVG } = await verifier();
  const dc = req.dcKey
    ? {
        protocol: DC_PROTOCOL,
        deviceRequest: deviceRequest(),
        encryptionInfo: encryptionInfo(req.nonce, JSON.parse(req.dcKey) as JsonWebKey),
      }
    : null;
  const shownCookie = `${AGE_SHOWN_COOKIE}=${req.id}; Path=/age-check; HttpOnly; Secure; SameSite=Lax; Max-Age=${AGE_REQUEST_TTL_S}`;
  const qr = renderSVG(requestLink(o.origin, req, "cross_device"), { border: 2 });
  return { kind: "ask", state: req.id, shownCookie, link, qr, refused, dc };
}

/** "Continue" of this browser's member or visitor. */
export async function continueCheck(
  request: Request,
  env: Pick<Env, "DB">,
  o: { memberId: string | null; state: string },
): Promise<CheckResult> {
  const subject = await ageSubject(request, o.memberId);
  if (!subject || !o.state || o.state.length > 64) return { kind: "expired" };
  return checkRequest(env.DB, subject, o.state);
}

// ─── The development wallet (outside production only) ───

/**
 * The development wallet's answer: a test attestation (or the previous presentation again) posted to
 * the request's response_uri through the Worker itself, as the app would post it.
 */
export async function walletAnswer(
  context: { env: Pick<Env, "DB">; deliver: (request: Request) => Promise<Response> },
  host: string,
  form: { request: string; answer: string; previous: string },
): Promise<{ status: number; body: string; previous: string; returnTo: string | null; error: string | null }> {
  const none = { status: 0, body: "", previous: form.previous, returnTo: null };
  const req = parseRequestLink(form.request.trim());
  if (!req) return { ...none, error: "That is not an age verification request." };
  const target = new URL(req.responseUri);
  if (target.host !== host) return { ...none, error: "The request's response_uri is not this site." };
  const answer = WALLET_CHOICES.find((c) => c === form.answer);
  if (!answer) return { ...none, error: "Choose an answer." };
  if (answer === "replayed" && !form.previous)
    return { ...none, error: "There is no previous presentation to replay." };
  const { presentTestAttestation } = await verifier();
  const presentation =
    answer === "replayed"
      ? form.previous
      : await presentTestAttestation(await loadTestIssuer(context.env.DB), answer, {
          nonce: req.nonce,
          clientId: req.clientId,
          responseUri: req.responseUri,
          now: new Date(),
        });
  const res = await context.deliver(
    new Request(req.responseUri, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Host: target.host },
      body: new URLSearchParams({ vp_token: JSON.stringify({ [AV_DCQL_ID]: [presentation] }), state: req.state }),
    }),
  );
  const body = await res.text();
  let returnTo: string | null = null;
  try {
    const uri = (JSON.parse(body) as { redirect_uri?: unknown }).redirect_uri;
    if (typeof uri === "string" && new URL(uri).host === host) returnTo = uri;
  } catch {
    // not JSON: shown as it is
  }
  return { status: res.status, body, previous: presentation, returnTo, error: null };
}
