/**
 * The Commission's trusted list of age verification attestation providers (ETSI TS 119 612 XML), its
 * enveloped XML signature checked (decisions 184, 198): a strict small XML reader (no DTD, no entities
 * beyond the five predefined and character references, no processing instructions), Exclusive XML
 * Canonicalization 1.0 without comments, and XMLDSig with ECDSA or RSA, the signature taken out by the
 * enveloped-signature transform or by the XPath Filter 2.0 form the Commission's signing tool writes.
 * The signer's certificate must be one the operator pinned (as the EU list of lists pins each list's
 * signers), and the list must be of the configured type (the AV scheme's by default).
 * Anything this reader does not support refuses the list: the cron then keeps the last good one.
 */
import { equalBytes, parseCertificate, publicKey } from "./x509.server.ts";
import { MAX_TRUSTED_LIST_CHARS, TRUSTED_LIST_GRACE_S } from "./trusted-list-limits.ts";

export { MAX_TRUSTED_LIST_CHARS, TRUSTED_LIST_GRACE_S };

const NS_TSL = "http://uri.etsi.org/02231/v2#";
const NS_DS = "http://www.w3.org/2000/09/xmldsig#";
const NS_XML = "http://www.w3.org/XML/1998/namespace";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
const FILTER2 = "http://www.w3.org/2002/06/xmldsig-filter2";
const DIGESTS: Record<string, string> = {
  "http://www.w3.org/2001/04/xmlenc#sha256": "SHA-256",
  "http://www.w3.org/2001/04/xmldsig-more#sha384": "SHA-384",
  "http://www.w3.org/2001/04/xmlenc#sha512": "SHA-512",
};
const SIGNATURES: Record<string, { name: string; hash: string }> = {
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256": { name: "ECDSA", hash: "SHA-256" },
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384": { name: "ECDSA", hash: "SHA-384" },
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256": { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384": { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" },
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512": { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" },
};
/** The EU age verification trusted list: its TSLType and scheme rules (what a list must declare by default). */
export const AV_SCHEME = {
  type: "http://ec.europa.eu/tools/lotl/av/TrstSvc/TrustedList/TSLType/AVTL",
  rules: "http://ec.europa.eu/tools/lotl/av/TrstSvc/TrustedList/schemerules/AVTL",
} as const;
export type TrustedListScheme = { type: string; rules: string };
/**
 * The statuses under which a listed service is trusted: ETSI's `granted`, and `recognized` of the AV
 * scheme's own vocabulary (its other status, `deprecated`, like ETSI's `withdrawn`, is not trusted).
 */
export const TRUSTED_STATUSES: ReadonlySet<string> = new Set([
  "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted",
  "http://ec.europa.eu/tools/lotl/av/TrstSvc/TrustedList/Svcstatus/recognized",
]);

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
    // Own keys only: `in` also found Object.prototype's (`&constructor;`).
    const named = new Map([
      ["lt", "<"],
      ["gt", ">"],
      ["amp", "&"],
      ["quot", '"'],
      ["apos", "'"],
    ]).get(ref);
    if (named === undefined) throw new XmlError(`entity ${m}`);
    return named;
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
 * leaving out the subtrees in `omit` (the signature a transform takes out). A namespace is rendered
 * where it is visibly used and the nearest rendered ancestor did not render it with the same URI.
 */
export function excC14n(
  el: XmlElement,
  omit: ReadonlySet<XmlElement> = new Set(),
  rendered = new Map<string, string>(),
): string {
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
    else if (!omit.has(c)) out += excC14n(c, omit, scope);
  }
  return `${out}</${el.name}>`;
}

const b64decode = (s: string) => Uint8Array.from(atob(s.replace(/\s+/g, "")), (c) => c.charCodeAt(0));

export type TrustedListRefusal = "malformed" | "scheme" | "signature" | "signer" | "stale";
export interface TrustedService {
  /** The provider (TSPName) and the service's own name, in English where the list has it. */
  provider: string;
  name: string;
  type: string;
  status: string;
  /** Whether its status is one we trust (TRUSTED_STATUSES). */
  trusted: boolean;
  certificates: Uint8Array[];
}
/** What a list says about itself and its providers (read before any check but the scheme's). */
export interface TrustedListInfo {
  type: string;
  rules: string[];
  operator: string;
  sequence: number | null;
  issued: Date;
  nextUpdate: Date | null;
  services: TrustedService[];
  /** The certificate in the signature's KeyInfo (whether pinned or not), when there is one. */
  signer: Uint8Array | null;
}
export type TrustedListResult =
  | ({ ok: true; roots: Uint8Array[] } & TrustedListInfo)
  | { ok: false; reason: TrustedListRefusal; list?: TrustedListInfo };

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

/** Every ds:Signature element in the document. */
function signatures(root: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => (is(e, NS_DS, "Signature") ? out.push(e) : elements(e).forEach(walk));
  walk(root);
  return out;
}

/**
 * XPath Filter 2.0 in the one form a signed list uses it for (the Commission's signing tool writes it
 * instead of enveloped-signature): one XPath, Filter="subtract", `/descendant::<p>:Signature` with <p>
 * bound to XMLDSig: every signature element and its subtree taken out. Any other expression refuses.
 */
function isFilter2SubtractSignatures(t: XmlElement): boolean {
  const [xp, ...others] = elements(t);
  if (!xp || others.length || !is(xp, FILTER2, "XPath") || xp.attrs.length !== 1) return false;
  if (attr(xp, "Filter") !== "subtract" || elements(xp).length) return false;
  const [, prefix] = /^\/descendant::([A-Za-z_][\w.-]*):Signature$/.exec(text(xp).trim()) ?? [];
  return prefix !== undefined && resolve(xp, prefix) === NS_DS;
}

/** What a Reference's transforms take out of its target, or null when they are not ones we reproduce exactly. */
function omitted(ref: XmlElement, root: XmlElement, sig: XmlElement): Set<XmlElement> | null {
  const transforms = childrenNamed(child(ref, NS_DS, "Transforms"), NS_DS, "Transform");
  const last = transforms[transforms.length - 1];
  // exc-c14n last (the digest is over its output), nothing but signature removal before it.
  if (!last || attr(last, "Algorithm") !== EXC_C14N || elements(last).length) return null;
  const omit = new Set<XmlElement>();
  for (const t of transforms.slice(0, -1)) {
    const alg = attr(t, "Algorithm");
    if (alg === ENVELOPED && !elements(t).length) omit.add(sig);
    else if (alg === FILTER2 && isFilter2SubtractSignatures(t)) signatures(root).forEach((s) => omit.add(s));
    else return null;
  }
  return omit;
}

/** The signature's checks; returns the signer's certificate (DER). Pinning is the caller's. */
async function checkSignature(root: XmlElement): Promise<Uint8Array> {
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
    const omit = need(omitted(ref, root, sig));
    // The whole list must be signed with its signature taken out: a reference to it that leaves the
    // signature in could never verify, one that leaves more out signs less than the list.
    if (uri === "") need(omit.has(sig));
    let target: XmlElement;
    if (uri === "") target = root;
    else {
      const found = uri.startsWith("#") ? byId(root, uri.slice(1)) : [];
      target = need(found.length === 1 && found[0]);
    }
    const hash = need(DIGESTS[attr(need(child(ref, NS_DS, "DigestMethod")), "Algorithm") ?? ""]);
    const data = new TextEncoder().encode(excC14n(target, omit));
    const digest = new Uint8Array(await crypto.subtle.digest(hash, data));
    need(equalBytes(digest, b64decode(text(child(ref, NS_DS, "DigestValue")))), "signature");
  }
  const x509 = child(child(child(sig, NS_DS, "KeyInfo"), NS_DS, "X509Data"), NS_DS, "X509Certificate");
  const certDer = b64decode(text(need(x509, "signer")));
  const cert = parseCertificate(certDer);
  // XMLDSig 1.1: an ECDSA SignatureValue is r||s, as WebCrypto takes it.
  const value = b64decode(text(child(sig, NS_DS, "SignatureValue")));
  const key =
    method.name === "ECDSA"
      ? await publicKey(cert)
      : await crypto.subtle.importKey("spki", cert.spki, { name: method.name, hash: method.hash }, false, ["verify"]);
  const signed = new TextEncoder().encode(excC14n(signedInfo));
  need(key && (await crypto.subtle.verify({ name: method.name, hash: method.hash }, key, value, signed)), "signature");
  return certDer;
}

/** A name in English where the list has one, else the first. */
const nameOf = (el: XmlElement | undefined) => {
  const names = childrenNamed(el, NS_TSL, "Name");
  const en = names.find((n) => attr(n, "xml:lang") === "en") ?? names[0];
  return text(en).replace(/\s+/g, " ").trim();
};

/** The list's own statements: scheme, dates, providers. */
function describe(root: XmlElement): TrustedListInfo {
  const scheme = need(child(root, NS_TSL, "SchemeInformation"));
  const issued = new Date(text(need(child(scheme, NS_TSL, "ListIssueDateTime"))).trim());
  const next = text(child(child(scheme, NS_TSL, "NextUpdate"), NS_TSL, "dateTime")).trim();
  const nextUpdate = next ? new Date(next) : null;
  need(!Number.isNaN(issued.getTime()) && (!nextUpdate || !Number.isNaN(nextUpdate.getTime())));
  const sequence = text(child(scheme, NS_TSL, "TSLSequenceNumber")).trim();
  const services: TrustedService[] = [];
  for (const tsp of childrenNamed(child(root, NS_TSL, "TrustServiceProviderList"), NS_TSL, "TrustServiceProvider")) {
    const provider = nameOf(child(child(tsp, NS_TSL, "TSPInformation"), NS_TSL, "TSPName"));
    for (const svc of childrenNamed(child(tsp, NS_TSL, "TSPServices"), NS_TSL, "TSPService")) {
      const info = need(child(svc, NS_TSL, "ServiceInformation"));
      const ids = childrenNamed(child(info, NS_TSL, "ServiceDigitalIdentity"), NS_TSL, "DigitalId");
      const status = text(child(info, NS_TSL, "ServiceStatus")).trim();
      services.push({
        provider,
        name: nameOf(child(info, NS_TSL, "ServiceName")),
        type: text(child(info, NS_TSL, "ServiceTypeIdentifier")).trim(),
        status,
        trusted: TRUSTED_STATUSES.has(status),
        certificates: ids.flatMap((d) => childrenNamed(d, NS_TSL, "X509Certificate").map((c) => b64decode(text(c)))),
      });
    }
  }
  const sig = childrenNamed(root, NS_DS, "Signature")[0];
  const x509 = child(child(child(sig, NS_DS, "KeyInfo"), NS_DS, "X509Data"), NS_DS, "X509Certificate");
  return {
    type: text(child(scheme, NS_TSL, "TSLType")).trim(),
    rules: childrenNamed(child(scheme, NS_TSL, "SchemeTypeCommunityRules"), NS_TSL, "URI").map((u) => text(u).trim()),
    operator: nameOf(child(scheme, NS_TSL, "SchemeOperatorName")),
    sequence: /^\d{1,9}$/.test(sequence) ? Number(sequence) : null,
    issued,
    nextUpdate,
    services,
    signer: x509 ? b64decode(text(x509)) : null,
  };
}

/**
 * Parses a TS 119 612 list, checks that it is of `scheme` (the AV scheme by default), checks its
 * signature and that its signer is one of the pinned `signers` (DER) and valid now, and that it is not
 * past its NextUpdate; returns the services and, as `roots`, the certificates of those whose status
 * is trusted: the providers' CAs or their document signers themselves, as the AV list has them (the
 * mdoc check takes either: verifyChain). A refusal after the list was read carries it (`list`).
 */
export async function readTrustedList(
  xml: string,
  opts: { signers: Uint8Array[]; now: Date; scheme?: TrustedListScheme },
): Promise<TrustedListResult> {
  let list: TrustedListInfo | undefined;
  try {
    need(typeof xml === "string" && xml.length <= MAX_TRUSTED_LIST_CHARS);
    const root = parseXml(xml);
    need(is(root, NS_TSL, "TrustServiceStatusList"));
    list = describe(root);
    const scheme = opts.scheme ?? AV_SCHEME;
    need(list.type === scheme.type && list.rules.includes(scheme.rules), "scheme");
    const signer = await checkSignature(root);
    need(
      opts.signers.some((s) => equalBytes(s, signer)),
      "signer",
    );
    const cert = parseCertificate(signer);
    need(opts.now.getTime() >= cert.notBefore && opts.now.getTime() <= cert.notAfter, "signer");
    need(!list.nextUpdate || list.nextUpdate.getTime() > opts.now.getTime(), "stale");
    const roots = list.services.filter((s) => s.trusted).flatMap((s) => s.certificates);
    return { ok: true, ...list, roots };
  } catch (e) {
    return { ok: false, reason: e instanceof Refused ? e.reason : "malformed", ...(list ? { list } : {}) };
  }
}
