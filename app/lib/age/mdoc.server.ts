/**
 * Verifies a proof-of-age mdoc presented over OpenID4VP 1.0 (redirect flow, direct_post), as the EU
 * age verification profile asks (docs/decisions/184-age-mdoc-verification.md): ISO 18013-5
 * DeviceResponse, issuer COSE_Sign1 (ECDSA or RSA) over the MSO, x5chain to a trusted attestation provider,
 * value digests, validity, device signature over the OpenID4VP SessionTranscript, age_over_18.
 * Nothing throws to the caller: every failure is a reason. Replay (a nonce used once) is the flow's.
 */
import { Tagged, decodeCbor, embed, encodeCbor, type Bytes, type CborValue } from "./cbor.server";
import { equalBytes, verifyChain, type Certificate } from "./x509.server";
import { isDocumentSigner, signedWhileValid } from "./signer-profile.server";

export type AgeRefusal =
  | "malformed"
  | "doctype"
  | "signature"
  | "issuer"
  | "digest"
  | "expired"
  | "nonce"
  | "claim"
  | "under_18";
export type AgeVerification = { ok: true } | { ok: false; reason: AgeRefusal };
/**
 * What the device signature is bound to: an OpenID4VP redirect-flow request (its client id, nonce and
 * response URI), or a SessionTranscript the caller built (the Digital Credentials API path,
 * `dcapiSessionTranscript` in dcapi.server.ts).
 */
export type Handover = { nonce: string; clientId: string; responseUri: string } | { transcript: CborValue };
export type PresentationContext = Handover & {
  now: Date;
  /** DER X.509 certificates of trusted attestation providers (or their CAs). */
  trustedRoots: Uint8Array[];
};

/** The SessionTranscript a handover stands for. */
export const transcriptOf = (h: Handover): Promise<CborValue> =>
  "transcript" in h ? Promise.resolve(h.transcript) : sessionTranscript(h.clientId, h.nonce, h.responseUri);

/** The proof-of-age document type; its claims live in a namespace of the same name (Annex A.10). */
export const AV_DOCTYPE = "eu.europa.ec.av.1";
export const AV_NAMESPACE = AV_DOCTYPE;
export const AV_CLAIM = "age_over_18";
/** A real DeviceResponse with a two-certificate chain is 2–4 KB; anything far larger is refused unread. */
export const MAX_DEVICE_RESPONSE_CHARS = 32 * 1024;

/** COSE labels and values (RFC 9052/9053). */
const COSE_ALG = 1;
const COSE_X5CHAIN = 33;
const ES256 = -7;

class Refused extends Error {
  constructor(readonly reason: AgeRefusal) {
    super(reason);
  }
}
const refuse = (reason: AgeRefusal): never => {
  throw new Refused(reason);
};
const check = (ok: unknown, reason: AgeRefusal) => {
  if (!ok) refuse(reason);
};

const b64urlDecode = (s: string): Uint8Array => {
  check(/^[A-Za-z0-9_-]*$/.test(s), "malformed");
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

// Typed access to decoded CBOR: a wrong shape is "malformed".
const get = (m: CborValue, key: string | number): CborValue => (m instanceof Map ? m.get(key) : refuse("malformed"));
const asMap = (v: CborValue) => (v instanceof Map ? v : refuse("malformed"));
const asArray = (v: CborValue) => (Array.isArray(v) ? v : refuse("malformed"));
const asBytes = (v: CborValue) => (v instanceof Uint8Array ? v : refuse("malformed"));
const asString = (v: CborValue) => (typeof v === "string" ? v : refuse("malformed"));
/** #6.24(bstr .cbor X): the tagged item and X decoded. */
const embedded = (v: CborValue) => {
  check(v instanceof Tagged && v.tag === 24 && v.raw, "malformed");
  const t = v as Tagged;
  return { raw: t.raw!, value: decodeCbor(asBytes(t.value)) };
};
/** tdate: #6.0(RFC 3339 string). */
const tdate = (v: CborValue) => {
  check(v instanceof Tagged && v.tag === 0 && typeof v.value === "string", "malformed");
  const t = Date.parse((v as Tagged).value as string);
  return Number.isNaN(t) ? refuse("malformed") : t;
};

/**
 * The OpenID4VP 1.0 SessionTranscript for a redirect flow (Appendix B.2.6.1), unencrypted response:
 * [null, null, ["OpenID4VPHandover", sha256(cbor([clientId, nonce, null, responseUri]))]].
 */
export async function sessionTranscript(clientId: string, nonce: string, responseUri: string): Promise<CborValue> {
  const info = encodeCbor([clientId, nonce, null, responseUri]);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", info));
  return [null, null, ["OpenID4VPHandover", hash]];
}

/** DeviceAuthenticationBytes: #6.24(bstr .cbor ["DeviceAuthentication", transcript, docType, nameSpacesBytes]). */
export const deviceAuthenticationBytes = (transcript: CborValue, docType: string, nameSpaces: Tagged) =>
  encodeCbor(embed(["DeviceAuthentication", transcript, docType, nameSpaces]));

/** Sig_structure for COSE_Sign1 with empty external AAD. */
export const sigStructure = (protectedHeader: Bytes, payload: Bytes) =>
  encodeCbor(["Signature1", protectedHeader, new Uint8Array(0), payload]);

/** A COSE_Sign1 ([protected, unprotected, payload, signature], tag 18 optional) taken apart. */
function coseSign1(v: CborValue) {
  const arr = asArray(v instanceof Tagged && v.tag === 18 ? v.value : v);
  check(arr.length === 4, "malformed");
  const protectedBytes = asBytes(arr[0]);
  const prot = protectedBytes.length ? asMap(decodeCbor(protectedBytes)) : new Map<CborValue, CborValue>();
  const unprotected = asMap(arr[1]);
  check(arr[2] === null || arr[2] instanceof Uint8Array, "malformed");
  return { protectedBytes, prot, unprotected, payload: arr[2] as Bytes | null, signature: asBytes(arr[3]) };
}

const verifyEs256 = async (key: CryptoKey, sign1: ReturnType<typeof coseSign1>, payload: Bytes) =>
  sign1.prot.get(COSE_ALG) === ES256 &&
  sign1.signature.length === 64 &&
  crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    sign1.signature,
    sigStructure(sign1.protectedBytes, payload),
  );

/**
 * The document signer's COSE algorithms (RFC 9053, RFC 8230): ECDSA on the signer's own curve, and RSA
 * (PSS or PKCS#1 v1.5, 2048 bits at least), since the AV trusted list's providers sign with either.
 */
const ISSUER_ALGS: Record<number, { name: string; hash: string; curve?: string; size?: number; saltLength?: number }> =
  {
    [-7]: { name: "ECDSA", hash: "SHA-256", curve: "P-256", size: 64 },
    [-35]: { name: "ECDSA", hash: "SHA-384", curve: "P-384", size: 96 },
    [-37]: { name: "RSA-PSS", hash: "SHA-256", saltLength: 32 },
    [-38]: { name: "RSA-PSS", hash: "SHA-384", saltLength: 48 },
    [-39]: { name: "RSA-PSS", hash: "SHA-512", saltLength: 64 },
    [-257]: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    [-258]: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" },
    [-259]: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" },
  };

/** The issuer's COSE_Sign1 over the MSO, by the document signer's key in the algorithm the header names. */
async function verifyIssuerAuth(signer: Certificate, sign1: ReturnType<typeof coseSign1>, payload: Bytes) {
  const alg = ISSUER_ALGS[sign1.prot.get(COSE_ALG) as number];
  if (!alg) return false;
  if (alg.curve ? signer.curve !== alg.curve || sign1.signature.length !== alg.size : (signer.rsaBits ?? 0) < 2048)
    return false;
  const key = await crypto.subtle.importKey(
    "spki",
    signer.spki,
    alg.curve ? { name: "ECDSA", namedCurve: alg.curve } : { name: alg.name, hash: alg.hash },
    false,
    ["verify"],
  );
  const params = { name: alg.name, hash: alg.hash, saltLength: alg.saltLength };
  return crypto.subtle.verify(params, key, sign1.signature, sigStructure(sign1.protectedBytes, payload));
}

/** The device key from the MSO: a COSE_Key EC2 on P-256 (kty 2, crv 1, x -2, y -3). */
function deviceKey(coseKey: CborValue): Promise<CryptoKey> {
  check(get(coseKey, 1) === 2 && get(coseKey, -1) === 1, "malformed");
  const b64 = (b: Uint8Array) =>
    btoa(String.fromCharCode(...b))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  const x = asBytes(get(coseKey, -2));
  const y = asBytes(get(coseKey, -3));
  check(x.length === 32 && y.length === 32, "malformed");
  return crypto.subtle.importKey(
    "jwk",
    { kty: "EC", crv: "P-256", x: b64(x), y: b64(y) },
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
}

async function verify(deviceResponse: string, ctx: PresentationContext): Promise<AgeVerification> {
  check(typeof deviceResponse === "string" && deviceResponse.length <= MAX_DEVICE_RESPONSE_CHARS, "malformed");
  const response = decodeCbor(b64urlDecode(deviceResponse));
  check(get(response, "status") === 0, "malformed");
  const documents = asArray(get(response, "documents"));
  check(documents.length === 1, "malformed");
  const doc = documents[0];
  const docType = asString(get(doc, "docType"));
  check(docType === AV_DOCTYPE, "doctype");

  // 1. The issuer's signature over the MSO, with the document signer key from the x5chain.
  const issuerSigned = asMap(get(doc, "issuerSigned"));
  const issuerAuth = coseSign1(get(issuerSigned, "issuerAuth"));
  const x5 = issuerAuth.unprotected.get(COSE_X5CHAIN) ?? issuerAuth.prot.get(COSE_X5CHAIN);
  const chain = (x5 instanceof Uint8Array ? [x5] : asArray(x5 ?? refuse("issuer"))).map(asBytes);
  const payload = issuerAuth.payload ?? refuse("malformed");
  const mso = embedded(decodeCbor(payload)).value;
  check(asString(get(mso, "docType")) === AV_DOCTYPE, "doctype");
  check(get(mso, "digestAlgorithm") === "SHA-256", "malformed");

  // 2. The document signer under a trusted attestation provider at `now`.
  const signer = await verifyChain(chain, ctx.trustedRoots, ctx.now);
  if (!signer) return { ok: false, reason: "issuer" };
  // A trusted certificate is a document signer only with its profile, and only for MSOs signed
  // while it was valid (ISO 18013-5 Annex B, §9.3.1; signer-profile.server.ts).
  const validity = asMap(get(mso, "validityInfo"));
  const listed = ctx.trustedRoots.some((r) => equalBytes(r, signer.der));
  if (!isDocumentSigner(signer, { listed }) || !signedWhileValid(signer, tdate(get(validity, "signed")))) {
    return { ok: false, reason: "issuer" };
  }
  check(await verifyIssuerAuth(signer, issuerAuth, payload), "signature");

  // 3. Every disclosed item against its value digest (over the item's exact #6.24 bytes).
  const valueDigests = asMap(get(mso, "valueDigests"));
  const nameSpaces = asMap(get(issuerSigned, "nameSpaces"));
  let claim: CborValue = undefined;
  for (const [ns, items] of nameSpaces) {
    const digests = asMap(valueDigests.get(ns) ?? refuse("digest"));
    // Each element once in a namespace (ISO 18013-5 §8.3.2.1.2.2), each digest used once: a second
    // age_over_18 would let the last one read win.
    const seen = new Set<CborValue>();
    const used = new Set<CborValue>();
    for (const entry of asArray(items)) {
      const { raw, value: item } = embedded(entry);
      const id = get(item, "elementIdentifier");
      const digestId = get(item, "digestID");
      check(typeof id === "string" && !seen.has(id) && !used.has(digestId), "malformed");
      seen.add(id);
      used.add(digestId);
      const expected = digests.get(digestId as number);
      const actual = new Uint8Array(await crypto.subtle.digest("SHA-256", raw));
      check(expected instanceof Uint8Array && equalBytes(expected, actual), "digest");
      if (ns === AV_NAMESPACE && id === AV_CLAIM) claim = get(item, "elementValue");
    }
  }

  // 4. The MSO's validity period.
  const now = ctx.now.getTime();
  check(tdate(get(validity, "validFrom")) <= now && now <= tdate(get(validity, "validUntil")), "expired");

  // 5. The device signature over this request's SessionTranscript: binds nonce, client id and response URI.
  const deviceSigned = asMap(get(doc, "deviceSigned"));
  const deviceNameSpaces = get(deviceSigned, "nameSpaces");
  embedded(deviceNameSpaces);
  const deviceSignature = coseSign1(get(asMap(get(deviceSigned, "deviceAuth")), "deviceSignature") ?? refuse("nonce"));
  const key = await deviceKey(get(asMap(get(mso, "deviceKeyInfo")), "deviceKey"));
  const transcript = await transcriptOf(ctx);
  const signed = deviceAuthenticationBytes(transcript, docType, deviceNameSpaces as Tagged);
  check(deviceSignature.payload === null && (await verifyEs256(key, deviceSignature, signed)), "nonce");

  // 6. The one fact asked.
  if (claim === undefined) return { ok: false, reason: "claim" };
  if (claim === false) return { ok: false, reason: "under_18" };
  return claim === true ? { ok: true } : { ok: false, reason: "claim" };
}

/** deviceResponse: the base64url CBOR DeviceResponse taken from the vp_token (the flow unwraps the DCQL id). */
export async function verifyPresentation(deviceResponse: string, ctx: PresentationContext): Promise<AgeVerification> {
  try {
    return await verify(deviceResponse, ctx);
  } catch (e) {
    if (e instanceof Refused) return { ok: false, reason: e.reason };
    // CborError, DerError, a key WebCrypto refuses, bad base64: all malformed input.
    return { ok: false, reason: "malformed" };
  }
}
