/**
 * The W3C Digital Credentials API path of the proof of age (ISO/IEC 18013-7 Annex C, protocol
 * `org-iso-mdoc`; decision 184): the DeviceRequest and EncryptionInfo the page hands to
 * `navigator.credentials.get({ digital })`, the SessionTranscript bound to the page's origin, and
 * HPKE (RFC 9180 base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM) to open the wallet's
 * EncryptedResponse. WebCrypto only; `hpkeSeal` is for the test issuer (the wallet's side).
 */
import { cborMap, decodeCbor, embed, encodeCbor, type Bytes, type CborValue } from "./cbor.server";
import { AV_CLAIM, AV_DOCTYPE, AV_NAMESPACE } from "./mdoc.server";

export const DC_PROTOCOL = "org-iso-mdoc";
/** An EncryptedResponse holds one DeviceResponse (a few KB) plus HPKE's overhead. */
export const MAX_DC_RESPONSE_CHARS = 48 * 1024;

const EC_DH = { name: "ECDH", namedCurve: "P-256" } as const;
const utf8 = (s: string) => new TextEncoder().encode(s);
export const concat = (...parts: Uint8Array[]): Bytes => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};
const u16 = (n: number) => Uint8Array.of(n >> 8, n & 255);
export const b64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
export const fromB64url = (s: string): Bytes => {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error("not base64url");
  return Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4)), (c) =>
    c.charCodeAt(0),
  );
};
const sha256 = async (b: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", b as Bytes));

// ─── HPKE, RFC 9180 §4–5, the one suite Annex C uses ───

const KEM_ID = 0x0010; // DHKEM(P-256, HKDF-SHA256)
const SUITE_KEM = concat(utf8("KEM"), u16(KEM_ID));
const SUITE_HPKE = concat(utf8("HPKE"), u16(KEM_ID), u16(0x0001), u16(0x0001)); // HKDF-SHA256, AES-128-GCM

async function hmac(key: Uint8Array, data: Uint8Array): Promise<Bytes> {
  // An empty salt is HashLen zero bytes (RFC 5869 §2.2); HMAC pads short keys with zeros anyway.
  const k = await crypto.subtle.importKey(
    "raw",
    (key.length ? key : new Uint8Array(32)) as Bytes,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, data as Bytes));
}
const labeledExtract = (suite: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array) =>
  hmac(salt, concat(utf8("HPKE-v1"), suite, utf8(label), ikm));
/** HKDF-Expand for at most one block (every length here is ≤ 32). */
const labeledExpand = async (suite: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number) =>
  (await hmac(prk, concat(u16(length), utf8("HPKE-v1"), suite, utf8(label), info, Uint8Array.of(1)))).slice(0, length);

async function keySchedule(sharedSecret: Uint8Array, info: Uint8Array) {
  const none = new Uint8Array(0);
  const context = concat(
    Uint8Array.of(0), // mode_base
    await labeledExtract(SUITE_HPKE, none, "psk_id_hash", none),
    await labeledExtract(SUITE_HPKE, none, "info_hash", info),
  );
  const secret = await labeledExtract(SUITE_HPKE, sharedSecret, "secret", none);
  const key = await labeledExpand(SUITE_HPKE, secret, "key", context, 16);
  const iv = await labeledExpand(SUITE_HPKE, secret, "base_nonce", context, 12);
  return { key: await crypto.subtle.importKey("raw", key, "AES-GCM", false, ["encrypt", "decrypt"]), iv };
}

/** DHKEM ExtractAndExpand over the DH result and kem_context = enc || pkRm. */
async function sharedSecret(dh: ArrayBuffer, enc: Uint8Array, pkR: Uint8Array) {
  const prk = await labeledExtract(SUITE_KEM, new Uint8Array(0), "eae_prk", new Uint8Array(dh));
  return labeledExpand(SUITE_KEM, prk, "shared_secret", concat(enc, pkR), 32);
}

const rawPublic = async (key: CryptoKey) => new Uint8Array(await crypto.subtle.exportKey("raw", key));

/** The sender's side (the wallet; here the test issuer): one message to `recipient`. */
export async function hpkeSeal(recipient: CryptoKey, info: Uint8Array, plaintext: Uint8Array) {
  const eph = (await crypto.subtle.generateKey(EC_DH, true, ["deriveBits"])) as CryptoKeyPair;
  const enc = await rawPublic(eph.publicKey);
  const dh = await crypto.subtle.deriveBits({ name: "ECDH", public: recipient }, eph.privateKey, 256);
  const { key, iv } = await keySchedule(await sharedSecret(dh, enc, await rawPublic(recipient)), info);
  const cipherText = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, plaintext as Bytes));
  return { enc, cipherText };
}

/** The recipient's side: the plaintext, or a throw when it was not sealed for this key and info. */
export async function hpkeOpen(recipient: CryptoKeyPair, enc: Bytes, info: Uint8Array, cipherText: Bytes) {
  const pkE = await crypto.subtle.importKey("raw", enc, EC_DH, false, []);
  const dh = await crypto.subtle.deriveBits({ name: "ECDH", public: pkE }, recipient.privateKey, 256);
  const { key, iv } = await keySchedule(await sharedSecret(dh, enc, await rawPublic(recipient.publicKey)), info);
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv }, key, cipherText));
}

// ─── Annex C structures ───

/** A fresh reader key for one request, kept (as a JWK) with the request until it is answered. */
export async function newReaderKey(): Promise<JsonWebKey> {
  const pair = (await crypto.subtle.generateKey(EC_DH, true, ["deriveBits"])) as CryptoKeyPair;
  return crypto.subtle.exportKey("jwk", pair.privateKey) as Promise<JsonWebKey>;
}

export async function readerKeyPair(jwk: JsonWebKey): Promise<CryptoKeyPair> {
  const { d: _d, key_ops: _ops, ...pub } = jwk;
  return {
    privateKey: await crypto.subtle.importKey("jwk", jwk, EC_DH, false, ["deriveBits"]),
    publicKey: await crypto.subtle.importKey("jwk", pub, EC_DH, true, []),
  };
}

/** EncryptionInfo = ["dcapi", {nonce, recipientPublicKey: COSE_Key}], base64url, exactly as sent. */
export function encryptionInfo(nonce: string, readerKey: JsonWebKey): string {
  const coseKey = cborMap([
    [1, 2], // kty EC2
    [-1, 1], // P-256
    [-2, fromB64url(readerKey.x!)],
    [-3, fromB64url(readerKey.y!)],
  ]);
  return b64url(
    encodeCbor([
      "dcapi",
      cborMap([
        ["nonce", utf8(nonce)],
        ["recipientPublicKey", coseKey],
      ]),
    ]),
  );
}

/** DeviceRequest (ISO 18013-5 §8.3.2.1.2.1): one proof-of-age document, only age_over_18, not retained. */
export function deviceRequest(): string {
  const items = cborMap([
    ["docType", AV_DOCTYPE],
    ["nameSpaces", cborMap([[AV_NAMESPACE, cborMap([[AV_CLAIM, false]])]])],
  ]);
  return b64url(
    encodeCbor(
      cborMap([
        ["version", "1.0"],
        ["docRequests", [cborMap([["itemsRequest", embed(items)]])]],
      ]),
    ),
  );
}

/**
 * Annex C SessionTranscript: [null, null, ["dcapi", sha256(cbor([encryptionInfo, origin]))]] — the
 * origin is the one the browser asserted to the wallet, so an answer given to another site fails.
 */
export async function dcapiSessionTranscript(encryptionInfoB64: string, origin: string): Promise<CborValue> {
  return [null, null, ["dcapi", await sha256(encodeCbor([encryptionInfoB64, origin]))]];
}

/** EncryptedResponse = ["dcapi", {enc, cipherText}] (base64url), as the wallet returns it in `data.response`. */
export function encryptedResponse(enc: Uint8Array, cipherText: Uint8Array): string {
  return b64url(
    encodeCbor([
      "dcapi",
      cborMap([
        ["enc", enc as Bytes],
        ["cipherText", cipherText as Bytes],
      ]),
    ]),
  );
}

/**
 * Opens the wallet's EncryptedResponse for this request: the base64url DeviceResponse inside, "malformed"
 * when the shape is wrong, "nonce" when it was sealed for another key or transcript (another request,
 * another origin).
 */
export async function openDcResponse(
  response: string,
  o: { readerKey: JsonWebKey; transcript: CborValue },
): Promise<{ ok: true; deviceResponse: string } | { ok: false; reason: "malformed" | "nonce" }> {
  let enc: Bytes;
  let cipherText: Bytes;
  try {
    if (response.length > MAX_DC_RESPONSE_CHARS) throw new Error("too large");
    const outer = decodeCbor(fromB64url(response));
    if (!Array.isArray(outer) || outer.length !== 2 || outer[0] !== "dcapi" || !(outer[1] instanceof Map))
      throw new Error("shape");
    const [e, c] = [outer[1].get("enc"), outer[1].get("cipherText")];
    if (!(e instanceof Uint8Array) || e.length !== 65 || !(c instanceof Uint8Array)) throw new Error("shape");
    [enc, cipherText] = [e, c];
  } catch {
    return { ok: false, reason: "malformed" };
  }
  try {
    const plain = await hpkeOpen(await readerKeyPair(o.readerKey), enc, encodeCbor(o.transcript), cipherText);
    return { ok: true, deviceResponse: b64url(plain) };
  } catch {
    return { ok: false, reason: "nonce" };
  }
}
