/**
 * The Commission's trusted list of age verification attestation providers (ETSI TS 119 612 XML), its
 * enveloped XML signature checked (decision 184): a strict small XML reader (no DTD, no entities
 * beyond the five predefined and character references, no processing instructions), Exclusive XML
 * Canonicalization 1.0 without comments, and XMLDSig with ECDSA or RSA over SHA-256. The signer's
 * certificate must be one the operator pinned (as the EU list of lists pins each list's signers).
 * Anything this reader does not support refuses the list: the cron then keeps the last good one.
 */
import { parseCertificate, publicKey } from "./x509.server";

const NS_TSL = "http://uri.etsi.org/02231/v2#";
const NS_DS = "http://www.w3.org/2000/09/xmldsig#";
const NS_XML = "http://www.w3.org/XML/1998/namespace";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
const DIGESTS: Record<string, string> = {
  "http://www.w3.org/2001/04/xmlenc#sha256": "SHA-256",
  "http://www.w3.org/2001/04/xmlenc#sha512": "SHA-512",
};
const SIGNATURES: Record<string, { name: string; hash: string }> = {
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256": { name: "ECDSA", hash: "SHA-256" },
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384": { name: "ECDSA", hash: "SHA-384" },
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256": { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
};
const GRANTED = "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted";
/** A list far larger than any real one is refused unread. */
export const MAX_TRUSTED_LIST_CHARS = 4 * 1024 * 1024;

export class XmlError extends Error {}

type Attr = { name: string; prefix: string; local: string; value: string };
export interface XmlElement {
  name: string;
  prefix: string;
  local: string;
  attrs: Attr[];
  /** Namespace declarations made on this element (prefix "" is the default namespace). */
  decls: Map<string, string>;
  children: (XmlElement | string)[];
  parent: XmlElement | null;
}

const splitName = (name: string) => {
  const i = name.indexOf(":");
  return i < 0 ? { prefix: "", local: name } : { prefix: name.slice(0, i), local: name.slice(i + 1) };
};

function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);|&/g, (m, ref: string | undefined) => {
    if (!ref) throw new XmlError("bare &");
    if (ref[0] === "#") return String.fromCodePoint(ref[1] === "x" ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)));
    const named: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
    if (!(ref in named)) throw new XmlError(`entity ${m}`);
    return named[ref];
  });
}

/** Parses a document into its root element; comments are dropped (as C14N without comments does). */
export function parseXml(input: string): XmlElement {
  const s = input.replace(/\r\n?/g, "\n");
  let pos = 0;
  let root: XmlElement | null = null;
  let current: XmlElement | null = null;
  const NAME = /[A-Za-z_][\w.:-]*/y;
  const readName = () => {
    NAME.lastIndex = pos;
    const m = NAME.exec(s);
    if (!m) throw new XmlError(`name expected at ${pos}`);
    pos += m[0].length;
    return m[0];
  };
  const skipSpace = () => {
    while (/\s/.test(s[pos] ?? "")) pos++;
  };
  while (pos < s.length) {
    if (s.startsWith("<!--", pos)) {
      const end = s.indexOf("-->", pos + 4);
      if (end < 0) throw new XmlError("open comment");
      pos = end + 3;
    } else if (s.startsWith("<?", pos)) {
      // Only the XML declaration, and only first: no processing instructions in a trusted list.
      if (pos !== 0 || !/^<\?xml\s/.test(s)) throw new XmlError("processing instruction");
      const end = s.indexOf("?>", pos);
      if (end < 0) throw new XmlError("open declaration");
      pos = end + 2;
    } else if (s.startsWith("<![CDATA[", pos)) {
      const end = s.indexOf("]]>", pos);
      if (!current || end < 0) throw new XmlError("CDATA outside an element");
      current.children.push(s.slice(pos + 9, end));
      pos = end + 3;
    } else if (s.startsWith("<!", pos)) {
      throw new XmlError("DTD or declaration refused");
    } else if (s.startsWith("</", pos)) {
      pos += 2;
      const name = readName();
      skipSpace();
      if (!current || current.name !== name || s[pos] !== ">") throw new XmlError(`mismatched </${name}>`);
      pos++;
      current = current.parent;
    } else if (s[pos] === "<") {
      pos++;
      if (root && !current) throw new XmlError("second root");
      const name = readName();
      const el: XmlElement = { name, ...splitName(name), attrs: [], decls: new Map(), children: [], parent: current };
      for (;;) {
        const before = pos;
        skipSpace();
        if (s[pos] === ">" || s.startsWith("/>", pos)) break;
        if (pos === before) throw new XmlError("space expected");
        const an = readName();
        skipSpace();
        if (s[pos] !== "=") throw new XmlError("= expected");
        pos++;
        skipSpace();
        const q = s[pos];
        if (q !== '"' && q !== "'") throw new XmlError("quote expected");
        const end = s.indexOf(q, pos + 1);
        const raw = end < 0 ? "" : s.slice(pos + 1, end);
        if (end < 0 || raw.includes("<")) throw new XmlError("bad attribute value");
        pos = end + 1;
        // Attribute-value normalisation: literal white space becomes a space; character references stay.
        const value = unescapeXml(raw.replace(/[\t\n]/g, " "));
        if (an === "xmlns" || an.startsWith("xmlns:")) {
          const p = an === "xmlns" ? "" : an.slice(6);
          if (el.decls.has(p)) throw new XmlError("duplicate namespace");
          el.decls.set(p, value);
        } else {
          if (el.attrs.some((a) => a.name === an)) throw new XmlError("duplicate attribute");
          el.attrs.push({ name: an, ...splitName(an), value });
        }
      }
      if (current) current.children.push(el);
      else root = el;
      if (s[pos] === "/") pos += 2;
      else {
        pos++;
        current = el;
      }
    } else {
      const end = s.indexOf("<", pos);
      const text = s.slice(pos, end < 0 ? s.length : end);
      if (current) current.children.push(unescapeXml(text));
      else if (text.trim()) throw new XmlError("text outside the root");
      pos = end < 0 ? s.length : end;
    }
  }
  if (!root || current) throw new XmlError("unclosed document");
  return root;
}

/** The namespace URI a prefix has in scope at `el` ("" for no default namespace). */
function resolve(el: XmlElement | null, prefix: string): string {
  if (prefix === "xml") return NS_XML;
  for (let e = el; e; e = e.parent) {
    const uri = e.decls.get(prefix);
    if (uri !== undefined) return uri;
  }
  if (prefix) throw new XmlError(`unbound prefix ${prefix}`);
  return "";
}

const nsOf = (el: XmlElement) => resolve(el, el.prefix);
const is = (el: XmlElement, ns: string, local: string) => el.local === local && nsOf(el) === ns;
const elements = (el: XmlElement) => el.children.filter((c): c is XmlElement => typeof c !== "string");
const child = (el: XmlElement | undefined, ns: string, local: string) =>
  el && elements(el).find((c) => is(c, ns, local));
const childrenNamed = (el: XmlElement | undefined, ns: string, local: string) =>
  el ? elements(el).filter((c) => is(c, ns, local)) : [];
const text = (el: XmlElement | undefined) => (el ? el.children.filter((c) => typeof c === "string").join("") : "");
const attr = (el: XmlElement, name: string) => el.attrs.find((a) => a.name === name)?.value;

const escText = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#xD;");
const escAttr = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/"/g, "&quot;")
    .replace(/\t/g, "&#x9;")
    .replace(/\n/g, "&#xA;")
    .replace(/\r/g, "&#xD;");

/**
 * Exclusive XML Canonicalization 1.0 without comments (no InclusiveNamespaces) of `el`'s subtree,
 * leaving out `omit` (the enveloped signature). A namespace is rendered where it is visibly used and
 * the nearest rendered ancestor did not render it with the same URI.
 */
export function excC14n(el: XmlElement, omit?: XmlElement, rendered = new Map<string, string>()): string {
  const used = new Set<string>([el.prefix]);
  for (const a of el.attrs) if (a.prefix && a.prefix !== "xml") used.add(a.prefix);
  const scope = new Map(rendered);
  const decls: [string, string][] = [];
  for (const p of [...used].sort()) {
    const uri = resolve(el, p);
    if ((rendered.get(p) ?? "") !== uri || (p !== "" && !rendered.has(p))) {
      decls.push([p, uri]);
      scope.set(p, uri);
    }
  }
  const attrs = el.attrs
    .map((a) => ({ a, ns: a.prefix ? resolve(el, a.prefix) : "" }))
    .sort((x, y) => (x.ns === y.ns ? (x.a.local < y.a.local ? -1 : 1) : x.ns < y.ns ? -1 : 1));
  let out = `<${el.name}`;
  for (const [p, uri] of decls) out += p ? ` xmlns:${p}="${escAttr(uri)}"` : ` xmlns="${escAttr(uri)}"`;
  for (const { a } of attrs) out += ` ${a.name}="${escAttr(a.value)}"`;
  out += ">";
  for (const c of el.children) {
    if (typeof c === "string") out += escText(c);
    else if (c !== omit) out += excC14n(c, omit, scope);
  }
  return `${out}</${el.name}>`;
}

const b64decode = (s: string) => Uint8Array.from(atob(s.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

export type TrustedListRefusal = "malformed" | "signature" | "signer" | "stale";
export interface TrustedService {
  type: string;
  status: string;
  name: string;
  certificates: Uint8Array[];
}
export type TrustedListResult =
  | { ok: true; issued: Date; nextUpdate: Date | null; services: TrustedService[]; roots: Uint8Array[] }
  | { ok: false; reason: TrustedListRefusal };

class Refused extends Error {
  constructor(readonly reason: TrustedListRefusal) {
    super(reason);
  }
}
const need = <T>(v: T | undefined | null | false, reason: TrustedListRefusal = "malformed"): T => {
  if (v === undefined || v === null || v === false) throw new Refused(reason);
  return v;
};

/** Every element of the tree with this Id (XAdES and TS 119 612 use `Id`). */
function byId(root: XmlElement, id: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    if (attr(e, "Id") === id || attr(e, "ID") === id || attr(e, "id") === id) out.push(e);
    elements(e).forEach(walk);
  };
  walk(root);
  return out;
}

async function checkSignature(root: XmlElement, signers: Uint8Array[], now: Date) {
  const sigs = childrenNamed(root, NS_DS, "Signature");
  const sig = need(sigs.length === 1 && sigs[0]);
  const signedInfo = need(child(sig, NS_DS, "SignedInfo"));
  const c14n = need(child(signedInfo, NS_DS, "CanonicalizationMethod"));
  need(attr(c14n, "Algorithm") === EXC_C14N && elements(c14n).length === 0);
  const method = need(SIGNATURES[attr(need(child(signedInfo, NS_DS, "SignatureMethod")), "Algorithm") ?? ""]);
  const references = childrenNamed(signedInfo, NS_DS, "Reference");
  need(references.some((r) => attr(r, "URI") === ""));
  for (const ref of references) {
    const uri = need(attr(ref, "URI"));
    const transforms = childrenNamed(child(ref, NS_DS, "Transforms"), NS_DS, "Transform");
    const algs = transforms.map((t) => (elements(t).length ? "" : attr(t, "Algorithm")));
    // Only [enveloped-signature,] exc-c14n: nothing we cannot reproduce exactly.
    need(algs[algs.length - 1] === EXC_C14N && algs.slice(0, -1).every((a) => a === ENVELOPED));
    let target: XmlElement;
    if (uri === "") target = root;
    else {
      const found = uri.startsWith("#") ? byId(root, uri.slice(1)) : [];
      target = need(found.length === 1 && found[0]);
    }
    const hash = need(DIGESTS[attr(need(child(ref, NS_DS, "DigestMethod")), "Algorithm") ?? ""]);
    const data = new TextEncoder().encode(excC14n(target, algs.includes(ENVELOPED) ? sig : undefined));
    const digest = new Uint8Array(await crypto.subtle.digest(hash, data));
    need(equal(digest, b64decode(text(child(ref, NS_DS, "DigestValue")))), "signature");
  }
  const x509 = child(child(child(sig, NS_DS, "KeyInfo"), NS_DS, "X509Data"), NS_DS, "X509Certificate");
  const certDer = b64decode(text(need(x509, "signer")));
  need(
    signers.some((s) => equal(s, certDer)),
    "signer",
  );
  const cert = parseCertificate(certDer);
  need(now.getTime() >= cert.notBefore && now.getTime() <= cert.notAfter, "signer");
  // XMLDSig 1.1: an ECDSA SignatureValue is r||s, as WebCrypto takes it.
  const value = b64decode(text(child(sig, NS_DS, "SignatureValue")));
  const key =
    method.name === "ECDSA"
      ? await publicKey(cert)
      : await crypto.subtle.importKey("spki", cert.spki, { name: method.name, hash: method.hash }, false, ["verify"]);
  const signed = new TextEncoder().encode(excC14n(signedInfo));
  need(key && (await crypto.subtle.verify({ name: method.name, hash: method.hash }, key, value, signed)), "signature");
}

/**
 * Parses a TS 119 612 list, checks its enveloped signature against the pinned `signers` (DER), and
 * returns the services with the CA certificates of those granted (the attestation providers' roots).
 */
export async function readTrustedList(
  xml: string,
  opts: { signers: Uint8Array[]; now: Date },
): Promise<TrustedListResult> {
  try {
    need(typeof xml === "string" && xml.length <= MAX_TRUSTED_LIST_CHARS);
    const root = parseXml(xml);
    need(is(root, NS_TSL, "TrustServiceStatusList"));
    await checkSignature(root, opts.signers, opts.now);
    const scheme = need(child(root, NS_TSL, "SchemeInformation"));
    const issued = new Date(text(need(child(scheme, NS_TSL, "ListIssueDateTime"))).trim());
    const next = text(child(child(scheme, NS_TSL, "NextUpdate"), NS_TSL, "dateTime")).trim();
    const nextUpdate = next ? new Date(next) : null;
    need(!Number.isNaN(issued.getTime()) && (!nextUpdate || !Number.isNaN(nextUpdate.getTime())));
    need(!nextUpdate || nextUpdate.getTime() > opts.now.getTime(), "stale");
    const services: TrustedService[] = [];
    for (const tsp of childrenNamed(child(root, NS_TSL, "TrustServiceProviderList"), NS_TSL, "TrustServiceProvider")) {
      for (const svc of childrenNamed(child(tsp, NS_TSL, "TSPServices"), NS_TSL, "TSPService")) {
        const info = need(child(svc, NS_TSL, "ServiceInformation"));
        const ids = childrenNamed(child(info, NS_TSL, "ServiceDigitalIdentity"), NS_TSL, "DigitalId");
        services.push({
          type: text(child(info, NS_TSL, "ServiceTypeIdentifier")).trim(),
          status: text(child(info, NS_TSL, "ServiceStatus")).trim(),
          name: text(child(child(info, NS_TSL, "ServiceName"), NS_TSL, "Name")).trim(),
          certificates: ids.flatMap((d) => childrenNamed(d, NS_TSL, "X509Certificate").map((c) => b64decode(text(c)))),
        });
      }
    }
    const roots = services.filter((s) => s.status === GRANTED).flatMap((s) => s.certificates);
    return { ok: true, issued, nextUpdate, services, roots };
  } catch (e) {
    return { ok: false, reason: e instanceof Refused ? e.reason : "malformed" };
  }
}
