/**
 * Just enough X.509 (RFC 5280) for the mdoc issuer chain (decisions 184, 198): a DER reader, the fields
 * a path check needs, and the path check itself (signatures through WebCrypto, validity periods, basic
 * constraints and key usage, unknown critical extensions refused). ECDSA P-256/P-384 and RSA keys with
 * SHA-256/384/512, the suites the EU age verification profile and its trusted list use. No revocation
 * (the profile leaves it out of scope; the attestations are short-lived).
 */

export class DerError extends Error {}

/** `x`, or a DerError when the input lacks it: malformed input is refused, never a TypeError. */
function need<T>(x: T | undefined, what: string): T {
  if (x === undefined) throw new DerError(what);
  return x;
}

type Tlv = { tag: number; start: number; body: number; end: number };

/** Reads the TLV at `pos` (single-byte tags, definite lengths up to 4 bytes). */
export function tlv(d: Uint8Array, pos: number, limit = d.length): Tlv {
  if (pos + 2 > limit) throw new DerError("truncated");
  const tag = need(d[pos], "truncated");
  if ((tag & 31) === 31) throw new DerError("high tag");
  let len = need(d[pos + 1], "truncated");
  let body = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || body + n > limit) throw new DerError("bad length");
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + need(d[body + i], "truncated");
    body += n;
  }
  if (body + len > limit) throw new DerError("truncated");
  return { tag, start: pos, body, end: body + len };
}

/** The TLVs directly inside a constructed TLV. */
export function children(d: Uint8Array, t: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let p = t.body; p < t.end;) {
    const child = tlv(d, p, t.end);
    out.push(child);
    p = child.end;
  }
  return out;
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
export const OID = {
  ecPublicKey: "2a8648ce3d0201",
  p256: "2a8648ce3d030107",
  p384: "2b81040022",
  ecdsaSha256: "2a8648ce3d040302",
  ecdsaSha384: "2a8648ce3d040303",
  rsaEncryption: "2a864886f70d010101",
  rsaSha256: "2a864886f70d01010b",
  rsaSha384: "2a864886f70d01010c",
  rsaSha512: "2a864886f70d01010d",
  basicConstraints: "551d13",
  keyUsage: "551d0f",
  extKeyUsage: "551d25",
} as const;
const CURVES: Record<string, string> = { [OID.p256]: "P-256", [OID.p384]: "P-384" };
const HASHES: Record<string, string> = { [OID.ecdsaSha256]: "SHA-256", [OID.ecdsaSha384]: "SHA-384" };
const RSA_HASHES: Record<string, string> = {
  [OID.rsaSha256]: "SHA-256",
  [OID.rsaSha384]: "SHA-384",
  [OID.rsaSha512]: "SHA-512",
};

export interface Certificate {
  der: Uint8Array;
  tbs: Uint8Array<ArrayBuffer>;
  sigAlg: string;
  signature: Uint8Array;
  issuer: string;
  subject: string;
  /** The subject name's DER (distinguishedName prints it). */
  subjectDer: Uint8Array;
  notBefore: number;
  notAfter: number;
  spki: Uint8Array<ArrayBuffer>;
  curve: string | undefined;
  /** An RSA key's modulus length in bits (undefined for any other key). */
  rsaBits: number | undefined;
  ca: boolean;
  pathLen: number | undefined;
  /** The keyUsage bits (bit 0 = digitalSignature as the first bit of the string), or undefined if absent. */
  keyUsage: number | undefined;
  /** The extendedKeyUsage purposes (OIDs as hex), or undefined if absent. */
  extKeyUsage: string[] | undefined;
  unknownCritical: boolean;
}

function time(d: Uint8Array, t: Tlv): number {
  const s = new TextDecoder().decode(d.subarray(t.body, t.end));
  const m = (
    t.tag === 0x17 ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/ : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/
  ).exec(s);
  if (!m || (t.tag !== 0x17 && t.tag !== 0x18)) throw new DerError("bad time");
  let y = Number(m[1]);
  if (t.tag === 0x17) y += y < 50 ? 2000 : 1900;
  return Date.UTC(y, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** Parses a DER certificate; throws DerError when it is not one. */
export function parseCertificate(der: Uint8Array): Certificate {
  const cert = tlv(der, 0);
  if (cert.tag !== 0x30 || cert.end !== der.length) throw new DerError("not a certificate");
  const [tbsT, algT, sigT] = children(der, cert);
  if (!tbsT || !algT || sigT?.tag !== 0x03) throw new DerError("not a certificate");
  let f = children(der, tbsT);
  if (f[0]?.tag === 0xa0) f = f.slice(1);
  const [, , issuerT, validityT, subjectT, spkiT, ...rest] = f;
  if (!issuerT || !validityT || !subjectT || !spkiT) throw new DerError("short tbs");
  const [nb, na] = children(der, validityT);
  if (!nb || !na) throw new DerError("bad validity");
  const keyAlgs = children(der, need(children(der, spkiT)[0], "no key algorithm"));
  const [keyAlg, curveOid] = keyAlgs;
  if (!keyAlg) throw new DerError("no key algorithm");
  const sigAlgT = need(children(der, algT)[0], "no signature algorithm");
  const c: Certificate = {
    der,
    tbs: der.slice(tbsT.start, tbsT.end),
    sigAlg: hex(der.subarray(sigAlgT.body, sigAlgT.end)),
    signature: der.subarray(sigT.body + 1, sigT.end),
    issuer: hex(der.subarray(issuerT.start, issuerT.end)),
    subject: hex(der.subarray(subjectT.start, subjectT.end)),
    subjectDer: der.slice(subjectT.start, subjectT.end),
    notBefore: time(der, nb),
    notAfter: time(der, na),
    spki: der.slice(spkiT.start, spkiT.end),
    curve:
      hex(der.subarray(keyAlg.body, keyAlg.end)) === OID.ecPublicKey && curveOid
        ? CURVES[hex(der.subarray(curveOid.body, curveOid.end))]
        : undefined,
    rsaBits: hex(der.subarray(keyAlg.body, keyAlg.end)) === OID.rsaEncryption ? rsaBits(der, spkiT) : undefined,
    ca: false,
    pathLen: undefined,
    keyUsage: undefined,
    extKeyUsage: undefined,
    unknownCritical: false,
  };
  const extsT = rest.find((t) => t.tag === 0xa3);
  if (extsT) {
    for (const ext of children(der, need(children(der, extsT)[0], "empty extensions"))) {
      // Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }
      const [idT, ...more] = children(der, ext);
      const value = more.at(-1);
      if (!idT || !value) throw new DerError("bad extension");
      const id = hex(der.subarray(idT.body, idT.end));
      const flag = more[0];
      const critical = flag?.tag === 0x01 && der[flag.body] !== 0;
      const inner = tlv(der, value.body, value.end);
      if (id === OID.basicConstraints) {
        for (const x of children(der, inner)) {
          if (x.tag === 0x01) c.ca = der[x.body] !== 0;
          if (x.tag === 0x02) c.pathLen = der.subarray(x.body, x.end).reduce((n, b) => n * 256 + b, 0);
        }
      } else if (id === OID.keyUsage) {
        // BIT STRING: first byte is the count of unused bits; bits counted from the most significant.
        c.keyUsage = ((der[inner.body + 1] ?? 0) << 8) | (der[inner.body + 2] ?? 0);
      } else if (id === OID.extKeyUsage) {
        c.extKeyUsage = children(der, inner).map((x) => hex(der.subarray(x.body, x.end)));
      } else if (critical) {
        c.unknownCritical = true;
      }
    }
  }
  return c;
}

/** The modulus length of an RSA SubjectPublicKeyInfo (BIT STRING of SEQUENCE { n, e }). */
function rsaBits(der: Uint8Array, spki: Tlv): number {
  const bits = need(children(der, spki)[1], "no RSA key");
  const n = need(children(der, tlv(der, bits.body + 1, bits.end))[0], "no RSA modulus");
  const modulus = der.subarray(n.body, n.end);
  const i = modulus.findIndex((b) => b !== 0);
  const top = modulus[i]; // undefined when the modulus is all zeros (i = -1)
  return top === undefined ? 0 : (modulus.length - i - 1) * 8 + (32 - Math.clz32(top));
}

const NAME_ATTRIBUTES: Record<string, string> = {
  "550406": "C",
  "55040a": "O",
  "55040b": "OU",
  "550403": "CN",
  "550407": "L",
  "550408": "ST",
  "550405": "serialNumber",
  "550461": "organizationIdentifier",
  "550404": "SN",
  "55042a": "GN",
  "2a864886f70d010901": "emailAddress",
};

/** A name as people read it (RFC 4514 order reversed to the certificate's own: C=…, O=…, CN=…). */
export function distinguishedName(c: Certificate): string {
  const d = c.subjectDer;
  const parts: string[] = [];
  for (const rdn of children(d, tlv(d, 0))) {
    for (const atv of children(d, rdn)) {
      const [type, value] = children(d, atv);
      if (!type || !value) throw new DerError("bad name");
      const id = hex(d.subarray(type.body, type.end));
      parts.push(`${NAME_ATTRIBUTES[id] ?? id}=${new TextDecoder().decode(d.subarray(value.body, value.end))}`);
    }
  }
  return parts.join(", ");
}

/** keyUsage bits as parsed above. */
export const KU_DIGITAL_SIGNATURE = 0x8000;
export const KU_KEY_CERT_SIGN = 0x0400;

/** ECDSA's DER signature (SEQUENCE of two INTEGERs) as WebCrypto's r||s. */
export function ecdsaDerToRaw(sig: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const seq = tlv(sig, 0);
  const [r, s] = children(sig, seq);
  if (!r || !s) throw new DerError("bad signature");
  const out = new Uint8Array(size * 2);
  for (const [i, t] of [r, s].entries()) {
    let v = sig.subarray(t.body, t.end);
    while (v.length > size && v[0] === 0) v = v.subarray(1);
    if (v.length > size) throw new DerError("bad signature");
    out.set(v, (i + 1) * size - v.length);
  }
  return out;
}

/** The certificate's public key for ECDSA verification, or null if not a supported EC key. */
export async function publicKey(c: Certificate): Promise<CryptoKey | null> {
  if (!c.curve) return null;
  return crypto.subtle.importKey("spki", c.spki, { name: "ECDSA", namedCurve: c.curve }, false, ["verify"]);
}

async function signedBy(child: Certificate, parent: Certificate): Promise<boolean> {
  if (child.issuer !== parent.subject) return false;
  const rsaHash = RSA_HASHES[child.sigAlg];
  if (rsaHash) {
    if (!parent.rsaBits || parent.rsaBits < 2048) return false;
    const alg = { name: "RSASSA-PKCS1-v1_5", hash: rsaHash };
    const rsa = await crypto.subtle.importKey("spki", parent.spki, alg, false, ["verify"]);
    return crypto.subtle.verify(alg, rsa, new Uint8Array(child.signature), child.tbs);
  }
  const hash = HASHES[child.sigAlg];
  const key = await publicKey(parent);
  if (!hash || !key) return false;
  const raw = ecdsaDerToRaw(child.signature, parent.curve === "P-384" ? 48 : 32);
  return crypto.subtle.verify({ name: "ECDSA", hash }, key, raw, child.tbs);
}

/** Byte-for-byte equality (certificates, digests). */
export const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Checks `chain` (leaf first, as in an x5chain) up to one of `roots` at `now`. The chain may end with
 * the root itself or with the certificate the root signed. A leaf that is itself one of `roots` (the
 * AV trusted list names the providers' document signers, not their CAs) is trusted as it is: its
 * validity, key usage and critical extensions are still checked. Returns the leaf, or null when untrusted.
 */
export async function verifyChain(chain: Uint8Array[], roots: Uint8Array[], now: Date): Promise<Certificate | null> {
  try {
    if (chain.length > 5) return null;
    const path = chain.map(parseCertificate);
    const leaf = path[0];
    if (!leaf) return null;
    const anchors = roots.flatMap((r) => {
      try {
        return [parseCertificate(r)];
      } catch {
        return [];
      }
    });
    const t = now.getTime();
    const usable = (c: Certificate) =>
      !c.unknownCritical &&
      t >= c.notBefore &&
      t <= c.notAfter &&
      (c.keyUsage ?? KU_DIGITAL_SIGNATURE) & KU_DIGITAL_SIGNATURE;
    if (anchors.some((a) => equalBytes(a.der, leaf.der))) return usable(leaf) ? leaf : null;
    // The wallet may include the root; it is the anchor then, not part of the checked path.
    const last = path.at(-1);
    if (path.length > 1 && last && anchors.some((a) => equalBytes(a.der, last.der))) path.pop();
    const top = path.at(-1) ?? leaf;
    let anchor: Certificate | undefined;
    for (const a of anchors) if (await signedBy(top, a)) anchor = a;
    if (!anchor) return null;
    const all = [...path, anchor];
    let below = leaf; // the certificate just under c, which c must have signed
    for (const [i, c] of all.entries()) {
      if (c.unknownCritical || t < c.notBefore || t > c.notAfter) return null;
      if (i === 0) {
        if (c.keyUsage !== undefined && !(c.keyUsage & KU_DIGITAL_SIGNATURE)) return null;
        continue;
      }
      // An issuing certificate: a CA, allowed to sign certificates, with room for the CAs below it.
      if (!c.ca || (c.keyUsage !== undefined && !(c.keyUsage & KU_KEY_CERT_SIGN))) return null;
      if (c.pathLen !== undefined && i - 1 > c.pathLen) return null;
      if (i < path.length && !(await signedBy(below, c))) return null;
      below = c;
    }
    return leaf;
  } catch {
    return null;
  }
}
