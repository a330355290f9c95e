/**
 * The test attestation provider and development wallet's answers (decision 184):
 * a test root CA and document signer made on first use and kept in D1 (app_keys), and proof-of-age
 * DeviceResponses signed the way a real wallet signs them, bound to one request. Outside production
 * only: the flow decides when this root is trusted and when the development wallet exists.
 */
import { cborMap, decodeCbor, embed, encodeCbor, Tagged, type Bytes, type CborValue } from "./cbor.server";
import {
  AV_CLAIM,
  AV_DOCTYPE,
  AV_NAMESPACE,
  deviceAuthenticationBytes,
  sigStructure,
  transcriptOf,
  type Handover,
} from "./mdoc.server";
import { OID } from "./x509.server";
import { EKU_MDOC_DS } from "./signer-profile.server";
import { concat, dcapiSessionTranscript, encryptedResponse, fromB64url, hpkeSeal } from "./dcapi.server";

export type WalletAnswer = "valid" | "under_18" | "expired" | "wrong_issuer";
export interface TestIssuer {
  rootDer: Bytes;
  /** The document signer's certificate (issued by the root) and its private key. */
  signerDer: Bytes;
  signerKey: JsonWebKey;
}
type Request = Handover & { now: Date };

const EC = { name: "ECDSA", namedCurve: "P-256" } as const;
const SIGN = { name: "ECDSA", hash: "SHA-256" } as const;
const DAY = 86_400_000;

// ─── DER, just enough to write two certificates ───

const der = (tag: number, ...body: Uint8Array[]) => {
  const b = concat(...body);
  const n = b.length;
  const len = n < 128 ? [n] : n < 256 ? [0x81, n] : [0x82, n >> 8, n & 255];
  return concat(Uint8Array.of(tag, ...len), b);
};
const fromHex = (h: string) => Uint8Array.from(h.match(/../g)!, (x) => parseInt(x, 16));
const oid = (h: string) => der(0x06, fromHex(h));
const seq = (...b: Uint8Array[]) => der(0x30, ...b);
/** A non-negative INTEGER from big-endian bytes. */
const int = (b: Uint8Array) => {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  b = b.subarray(i);
  return der(0x02, (b[0] ?? 0) & 0x80 ? concat(Uint8Array.of(0), b) : b);
};
/** C=EU, CN=cn: ISO 18013-5 asks a country in the issuer's name. */
const name = (cn: string) =>
  seq(
    der(0x31, seq(oid("550406"), der(0x13, new TextEncoder().encode("EU")))),
    der(0x31, seq(oid("550403"), der(0x0c, new TextEncoder().encode(cn)))),
  );
const utcTime = (t: number) =>
  der(
    0x17,
    new TextEncoder().encode(
      new Date(t).toISOString().replace(/^\d\d(\d\d)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d).*$/, "$1$2$3$4$5$6Z"),
    ),
  );
const ext = (id: string, critical: boolean, value: Uint8Array) =>
  seq(oid(id), ...(critical ? [der(0x01, Uint8Array.of(0xff))] : []), der(0x04, value));

async function sign(key: CryptoKey, data: Bytes) {
  return new Uint8Array(await crypto.subtle.sign(SIGN, key, data));
}

/** Fixed dates (UTCTime, before 2050) so tests with controlled clocks never meet an edge. */
const CERT_FROM = Date.UTC(2024, 0, 1);
const CERT_UNTIL = Date.UTC(2049, 11, 31, 23, 59, 59);

/**
 * How a test document signer departs from ISO 18013-5's profile (the negative tests): another or no
 * extended key usage, no keyUsage, a basicConstraints marking it a CA, its own validity period.
 */
export interface SignerFlaws {
  eku?: string | null;
  noKeyUsage?: boolean;
  markedCa?: boolean;
  from?: number;
  until?: number;
}

const caConstraints = (pathLen: number) =>
  ext(OID.basicConstraints, true, seq(der(0x01, Uint8Array.of(0xff)), der(0x02, Uint8Array.of(pathLen))));

/** A certificate for the tests (a CA with pathLenConstraint `pathLen`, default 0, or a document signer). */
export async function certificate(opts: {
  subject: string;
  issuer: string;
  subjectKey: CryptoKey;
  issuerKey: CryptoKey;
  ca: boolean;
  pathLen?: number;
  flaws?: SignerFlaws;
}): Promise<Bytes> {
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", opts.subjectKey));
  const f = opts.flaws ?? {};
  const eku = f.eku === undefined ? EKU_MDOC_DS : f.eku;
  const exts = opts.ca
    ? [caConstraints(opts.pathLen ?? 0), ext(OID.keyUsage, true, der(0x03, Uint8Array.of(1, 0x06)))]
    : [
        ...(f.markedCa ? [caConstraints(0)] : []),
        ...(f.noKeyUsage ? [] : [ext(OID.keyUsage, true, der(0x03, Uint8Array.of(7, 0x80)))]),
        ...(eku ? [ext(OID.extKeyUsage, false, seq(oid(eku)))] : []),
      ];
  const alg = seq(oid(OID.ecdsaSha256));
  const tbs = seq(
    der(0xa0, der(0x02, Uint8Array.of(2))),
    int(crypto.getRandomValues(new Uint8Array(16))),
    alg,
    name(opts.issuer),
    seq(utcTime(f.from ?? CERT_FROM), utcTime(f.until ?? CERT_UNTIL)),
    name(opts.subject),
    spki,
    der(0xa3, seq(...exts)),
  );
  const raw = await sign(opts.issuerKey, tbs);
  const sig = seq(int(raw.subarray(0, 32)), int(raw.subarray(32)));
  return seq(tbs, alg, der(0x03, Uint8Array.of(0), sig));
}

const generate = () => crypto.subtle.generateKey(EC, true, ["sign", "verify"]) as Promise<CryptoKeyPair>;

const RSA_PSS = { name: "RSA-PSS", hash: "SHA-256", saltLength: 32 } as const;
const generateRsa = () =>
  crypto.subtle.generateKey({ ...RSA_PSS, modulusLength: 2048, publicExponent: Uint8Array.of(1, 0, 1) }, true, [
    "sign",
    "verify",
  ]) as Promise<CryptoKeyPair>;

/**
 * A root CA and a document signer under it (P-256, or RSA signing PS256 as some listed providers do;
 * with `flaws`, one that breaks the signer profile).
 */
export async function makeIssuer(label: string, o: { rsa?: boolean; flaws?: SignerFlaws } = {}): Promise<TestIssuer> {
  const root = await generate();
  const signer = await (o.rsa ? generateRsa() : generate());
  const rootName = `${label} Age Verification Test Root`;
  const rootDer = await certificate({
    subject: rootName,
    issuer: rootName,
    subjectKey: root.publicKey,
    issuerKey: root.privateKey,
    ca: true,
  });
  const signerDer = await certificate({
    subject: `${label} Age Verification Test DS`,
    issuer: rootName,
    subjectKey: signer.publicKey,
    issuerKey: root.privateKey,
    ca: false,
    flaws: o.flaws,
  });
  return { rootDer, signerDer, signerKey: (await crypto.subtle.exportKey("jwk", signer.privateKey)) as JsonWebKey };
}

const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const b64url = (b: Uint8Array) => b64(b).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The test root as app_keys keeps it (a JSON text), made by `makeIssuer`; app/models/age-check.server.ts stores it. */
export async function newStoredIssuer(): Promise<string> {
  const fresh = await makeIssuer("Development");
  return JSON.stringify({ rootDer: b64(fresh.rootDer), signerDer: b64(fresh.signerDer), signerKey: fresh.signerKey });
}

export function storedIssuer(value: string): TestIssuer {
  const v = JSON.parse(value) as { rootDer: string; signerDer: string; signerKey: JsonWebKey };
  return { rootDer: unb64(v.rootDer), signerDer: unb64(v.signerDer), signerKey: v.signerKey };
}

export interface TestPresentation {
  docType?: string;
  /** The disclosed claims of the AV namespace, in order; default age_over_18 = true. */
  claims?: [string, CborValue][];
  validFrom: Date;
  validUntil: Date;
  /** When the MSO says it was signed; default validFrom. */
  signed?: Date;
}

const tdate = (d: Date) => new Tagged(0, d.toISOString().replace(/\.\d{3}Z$/, "Z"));

/** A DeviceResponse as a wallet makes it: a fresh device key, the MSO signed by the issuer, the device signature over the request's transcript. */
export async function issueTestPresentation(issuer: TestIssuer, p: TestPresentation, req: Request): Promise<string> {
  const docType = p.docType ?? AV_DOCTYPE;
  const device = await generate();
  const dk = (await crypto.subtle.exportKey("jwk", device.publicKey)) as JsonWebKey;
  const fromB64url = (s: string) => unb64(s.replace(/-/g, "+").replace(/_/g, "/"));
  const coseKey = cborMap([
    [1, 2],
    [-1, 1],
    [-2, fromB64url(dk.x!)],
    [-3, fromB64url(dk.y!)],
  ]);
  const items = (p.claims ?? [[AV_CLAIM, true]]).map(([id, value], i) =>
    embed(
      cborMap([
        ["digestID", i],
        ["random", crypto.getRandomValues(new Uint8Array(16))],
        ["elementIdentifier", id],
        ["elementValue", value],
      ]),
    ),
  );
  const digests = cborMap(
    await Promise.all(
      items.map(async (it, i): Promise<[number, CborValue]> => [
        i,
        new Uint8Array(await crypto.subtle.digest("SHA-256", encodeCbor(it))),
      ]),
    ),
  );
  const mso = cborMap([
    ["version", "1.0"],
    ["digestAlgorithm", "SHA-256"],
    ["valueDigests", cborMap([[AV_NAMESPACE, digests]])],
    ["deviceKeyInfo", cborMap([["deviceKey", coseKey]])],
    ["docType", docType],
    [
      "validityInfo",
      cborMap([
        ["signed", tdate(p.signed ?? p.validFrom)],
        ["validFrom", tdate(p.validFrom)],
        ["validUntil", tdate(p.validUntil)],
      ]),
    ],
  ]);
  const protectedEs256 = encodeCbor(cborMap([[1, -7]]));
  const payload = encodeCbor(embed(mso));
  const rsa = issuer.signerKey.kty === "RSA";
  const protectedIssuer = rsa ? encodeCbor(cborMap([[1, -37]])) : protectedEs256;
  const signerKey = await crypto.subtle.importKey("jwk", issuer.signerKey, rsa ? RSA_PSS : EC, false, ["sign"]);
  const issuerAuth = [
    protectedIssuer,
    cborMap([[33, issuer.signerDer]]),
    payload,
    new Uint8Array(await crypto.subtle.sign(rsa ? RSA_PSS : SIGN, signerKey, sigStructure(protectedIssuer, payload))),
  ];

  const deviceNameSpaces = embed(new Map());
  const transcript = await transcriptOf(req);
  const signed = deviceAuthenticationBytes(transcript, docType, deviceNameSpaces);
  const deviceSignature = [
    protectedEs256,
    new Map(),
    null,
    await sign(device.privateKey, sigStructure(protectedEs256, signed)),
  ];

  const document = cborMap([
    ["docType", docType],
    [
      "issuerSigned",
      cborMap([
        ["nameSpaces", cborMap([[AV_NAMESPACE, items]])],
        ["issuerAuth", issuerAuth],
      ]),
    ],
    [
      "deviceSigned",
      cborMap([
        ["nameSpaces", deviceNameSpaces],
        ["deviceAuth", cborMap([["deviceSignature", deviceSignature]])],
      ]),
    ],
  ]);
  return b64url(
    encodeCbor(
      cborMap([
        ["version", "1.0"],
        ["documents", [document]],
        ["status", 0],
      ]),
    ),
  );
}

/** What the development wallet answers: a base64url DeviceResponse bound to this request's nonce/clientId/responseUri. */
export async function presentTestAttestation(issuer: TestIssuer, answer: WalletAnswer, req: Request): Promise<string> {
  const t = req.now.getTime();
  const expired = answer === "expired";
  return issueTestPresentation(
    answer === "wrong_issuer" ? await makeIssuer("Untrusted") : issuer,
    {
      claims: [[AV_CLAIM, answer !== "under_18"]],
      validFrom: new Date(t - (expired ? 120 : 1) * DAY),
      validUntil: new Date(t + (expired ? -30 : 90) * DAY),
    },
    req,
  );
}

/**
 * The wallet's side of the Digital Credentials API path (ISO 18013-7 Annex C), for the tests: reads the
 * page's EncryptionInfo as a wallet does, signs the presentation over the transcript of `origin` (the
 * origin the browser asserts) and returns the HPKE-sealed EncryptedResponse (`data.response`).
 */
export async function presentTestAttestationDc(
  issuer: TestIssuer,
  answer: WalletAnswer,
  req: { encryptionInfo: string; origin: string; now: Date },
): Promise<string> {
  const info = decodeCbor(fromB64url(req.encryptionInfo)) as [string, Map<string, Map<number, Bytes>>];
  const key = info[1].get("recipientPublicKey")!;
  const recipient = await crypto.subtle.importKey(
    "jwk",
    { kty: "EC", crv: "P-256", x: b64url(key.get(-2)!), y: b64url(key.get(-3)!) },
    { name: "ECDH", namedCurve: "P-256" },
    true,
    [],
  );
  const transcript = await dcapiSessionTranscript(req.encryptionInfo, req.origin);
  const deviceResponse = await presentTestAttestation(issuer, answer, { transcript, now: req.now });
  const sealed = await hpkeSeal(recipient, encodeCbor(transcript), fromB64url(deviceResponse));
  return encryptedResponse(sealed.enc, sealed.cipherText);
}
