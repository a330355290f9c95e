import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { verifyPresentation } from "~/lib/age/mdoc.server";
import { makeIssuer, presentTestAttestation, type TestIssuer } from "~/lib/age/test-issuer.server";
import { loadTestIssuer } from "~/models/age-check.server";
import {
  AV_SCHEME,
  TRUSTED_LIST_GRACE_S,
  excC14n,
  parseXml,
  readTrustedList,
  type XmlElement,
} from "~/lib/age/trusted-list.server";
import { parseCertificate } from "~/lib/age/x509.server";
import { isDocumentSigner } from "~/lib/age/signer-profile.server";
import { refreshAndAlert, refreshTrustedList, trustedListState, usableTrustedRoots } from "~/models/age-trust.server";
// The EU age verification test trusted list as the Commission's reference verifier keeps it, in its two
// signed versions: signed 2025-09-12 (enveloped-signature, five services) and 2025-10-02 (XPath Filter 2.0).
import realList from "../fixtures/age/av-trusted-list-2025-09-12-enveloped.xml?raw";
import realFilter2List from "../fixtures/age/av-trusted-list-2025-10-02-filter2.xml?raw";
import realSigner from "../fixtures/age/av-trusted-list-signer.b64?raw";

// The trusted list of attestation providers (ETSI TS 119 612) and its signature (decisions 184, 198).
const NOW = new Date("2026-11-24T12:00:00Z");
const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
const der = (s: string) => Uint8Array.from(atob(s.trim()), (c) => c.charCodeAt(0));
const AV = "http://ec.europa.eu/tools/lotl/av/TrstSvc/TrustedList/Svcstatus/";
const ETSI = "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/";
const FILTER2 = `<ds:Transform Algorithm="http://www.w3.org/2002/06/xmldsig-filter2"><dsig-filter2:XPath xmlns:dsig-filter2="http://www.w3.org/2002/06/xmldsig-filter2" Filter="subtract">/descendant::ds:Signature</dsig-filter2:XPath></ds:Transform>`;
const ENVELOPED = `<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>`;

/**
 * A generated list of the AV scheme: one trusted provider (`granted`), one not (`withdrawn`), signed
 * by `signer` with the signature taken out by `transform`.
 */
async function signedList(
  signer: TestIssuer,
  granted: Uint8Array,
  withdrawn: Uint8Array,
  o: { nextUpdate?: string; status?: [string, string]; transform?: string; type?: string } = {},
) {
  const nextUpdate = o.nextUpdate ?? "2026-12-24T00:00:00Z";
  const [yes, no] = o.status ?? [`${ETSI}granted`, `${ETSI}withdrawn`];
  const service = (name: string, status: string, cert: Uint8Array) => `
      <tsl:TSPService><tsl:ServiceInformation>
        <tsl:ServiceTypeIdentifier>http://uri.etsi.org/TrstSvc/Svctype/CA/PKC</tsl:ServiceTypeIdentifier>
        <tsl:ServiceName><tsl:Name xml:lang="en">${name}</tsl:Name></tsl:ServiceName>
        <tsl:ServiceDigitalIdentity><tsl:DigitalId><tsl:X509Certificate>${b64(cert)}</tsl:X509Certificate></tsl:DigitalId></tsl:ServiceDigitalIdentity>
        <tsl:ServiceStatus>${status}</tsl:ServiceStatus>
      </tsl:ServiceInformation></tsl:TSPService>`;
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<!-- generated for the tests -->
<tsl:TrustServiceStatusList xmlns:tsl="http://uri.etsi.org/02231/v2#" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="tsl" TSLTag="http://uri.etsi.org/19612/TSLTag">
  <tsl:SchemeInformation>
    <tsl:TSLVersionIdentifier>6</tsl:TSLVersionIdentifier>
    <tsl:TSLSequenceNumber>7</tsl:TSLSequenceNumber>
    <tsl:TSLType>${o.type ?? AV_SCHEME.type}</tsl:TSLType>
    <tsl:SchemeOperatorName><tsl:Name xml:lang="en">European Commission &amp; test</tsl:Name></tsl:SchemeOperatorName>
    <tsl:SchemeTypeCommunityRules><tsl:URI xml:lang="en">
      ${AV_SCHEME.rules}</tsl:URI></tsl:SchemeTypeCommunityRules>
    <tsl:ListIssueDateTime>2026-11-01T00:00:00Z</tsl:ListIssueDateTime>
    <tsl:NextUpdate><tsl:dateTime>${nextUpdate}</tsl:dateTime></tsl:NextUpdate>
  </tsl:SchemeInformation>
  <tsl:TrustServiceProviderList>
    <tsl:TrustServiceProvider><tsl:TSPServices>${service("Test AP", yes, granted)}${service("Old AP", no, withdrawn)}
    </tsl:TSPServices></tsl:TrustServiceProvider>
  </tsl:TrustServiceProviderList>
SIGNATURE</tsl:TrustServiceStatusList>`;
  const digest = b64(
    new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(excC14n(parseXml(body.replace("SIGNATURE", ""))))),
    ),
  );
  const signature = `<ds:Signature Id="sig"><ds:SignedInfo>
<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>
<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"/>
<ds:Reference URI=""><ds:Transforms>${o.transform ?? ENVELOPED}<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></ds:Transforms>
<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue>${digest}</ds:DigestValue></ds:Reference>
</ds:SignedInfo><ds:SignatureValue>VALUE</ds:SignatureValue><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${b64(signer.signerDer)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></ds:Signature>`;
  const unsigned = body.replace("SIGNATURE", signature);
  const root = parseXml(unsigned);
  const sig = root.children.find((c): c is XmlElement => typeof c !== "string" && c.local === "Signature")!;
  const signedInfo = sig.children.find((c): c is XmlElement => typeof c !== "string" && c.local === "SignedInfo")!;
  const key = await crypto.subtle.importKey("jwk", signer.signerKey, { name: "ECDSA", namedCurve: "P-256" }, false, [
    "sign",
  ]);
  const value = await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    new TextEncoder().encode(excC14n(signedInfo)),
  );
  return unsigned.replace("VALUE", b64(new Uint8Array(value)));
}

describe("age trusted list", () => {
  it("canonicalises as Exclusive C14N 1.0 does", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<a:Root xmlns:a="urn:a" xmlns:b="urn:b" xmlns="urn:d" b:z="1" y='2 &amp; "q"'>
  <!-- dropped -->
  <Child attr="x&#10;y" a:k="v"><![CDATA[<tag> & ]]>text &gt; &#13;</Child>
  <b:Empty/>
</a:Root>`;
    expect(excC14n(parseXml(xml))).toBe(
      `<a:Root xmlns:a="urn:a" xmlns:b="urn:b" y="2 &amp; &quot;q&quot;" b:z="1">\n  \n  <Child xmlns="urn:d" attr="x&#xA;y" a:k="v">&lt;tag&gt; &amp; text &gt; &#xD;</Child>\n  <b:Empty></b:Empty>\n</a:Root>`,
    );
  });

  it("reads a signed list: the granted providers' CAs, which then verify a presentation", async () => {
    const signer = await makeIssuer("List signer");
    const issuer = await loadTestIssuer(env.DB);
    const old = await makeIssuer("Old");
    const xml = await signedList(signer, issuer.rootDer, old.rootDer);
    const list = await readTrustedList(xml, { signers: [signer.signerDer], now: NOW });
    if (!list.ok) throw new Error(list.reason);
    expect(list.services.map((s) => [s.name, s.status.split("/").pop()])).toEqual([
      ["Test AP", "granted"],
      ["Old AP", "withdrawn"],
    ]);
    expect(list.roots).toEqual([issuer.rootDer]);
    expect(list.nextUpdate).toEqual(new Date("2026-12-24T00:00:00Z"));
    const request = {
      nonce: "n1",
      clientId: "redirect_uri:https://x.test/r",
      responseUri: "https://x.test/r",
      now: NOW,
    };
    const vp = await presentTestAttestation(issuer, "valid", request);
    expect(await verifyPresentation(vp, { ...request, trustedRoots: list.roots })).toEqual({ ok: true });
  });

  it("refuses a changed list, an unpinned signer, a stale list and a DTD", async () => {
    const signer = await makeIssuer("List signer");
    const issuer = await loadTestIssuer(env.DB);
    const old = await makeIssuer("Old");
    const xml = await signedList(signer, issuer.rootDer, old.rootDer);
    const opts = { signers: [signer.signerDer], now: NOW };
    // Withdrawn made granted after signing: the digest no longer matches.
    const changed = xml.replace("Svcstatus/withdrawn", "Svcstatus/granted");
    expect(await readTrustedList(changed, opts)).toMatchObject({ ok: false, reason: "signature" });
    // A changed SignedInfo (an attribute added) breaks the signature itself.
    const resigned = xml.replace('<ds:Reference URI="">', '<ds:Reference URI="" Id="r">');
    expect(await readTrustedList(resigned, opts)).toMatchObject({ ok: false, reason: "signature" });
    expect(await readTrustedList(xml, { ...opts, signers: [old.signerDer] })).toMatchObject({
      ok: false,
      reason: "signer",
    });
    expect(await readTrustedList(xml, { ...opts, now: new Date("2027-01-01T00:00:00Z") })).toMatchObject({
      ok: false,
      reason: "stale",
    });
    const dtd = xml.replace("<!-- generated for the tests -->", '<!DOCTYPE x [<!ENTITY e "boom">]>');
    expect(await readTrustedList(dtd, opts)).toMatchObject({ ok: false, reason: "malformed" });
    expect(await readTrustedList("<tsl:TrustServiceStatusList", opts)).toMatchObject({
      ok: false,
      reason: "malformed",
    });
    // Unsigned: the signature removed altogether.
    const unsigned = xml.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, "");
    expect(await readTrustedList(unsigned, opts)).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("the daily refresh keeps a checked list's providers and keeps the last good list when a new one fails", async () => {
    const signer = await makeIssuer("List signer");
    const issuer = await loadTestIssuer(env.DB);
    const old = await makeIssuer("Old");
    const xml = await signedList(signer, issuer.rootDer, old.rootDer);
    const config = {
      DB: env.DB,
      AGE_TRUSTED_LIST_URL: "https://list.test/av.xml",
      AGE_TRUSTED_LIST_SIGNERS: b64(signer.signerDer),
    };
    const stored = async () => (await env.DB.prepare("SELECT der, fetched_at FROM age_trusted_roots").all()).results;
    const serve =
      (body: string, status = 200) =>
      async () =>
        new Response(body, { status });

    expect(await refreshTrustedList({ DB: env.DB }, NOW, serve(xml))).toBe("not_configured");
    expect(await refreshTrustedList(config, NOW, serve(xml))).toBe("stored");
    expect(await stored()).toEqual([{ der: b64(issuer.rootDer), fetched_at: Math.floor(NOW.getTime() / 1000) }]);
    // Each failure leaves the list of the last good day in place.
    const later = new Date("2026-11-25T12:00:00Z");
    expect(
      await refreshTrustedList(config, later, serve(xml.replace("Svcstatus/withdrawn", "Svcstatus/granted"))),
    ).toBe("signature");
    expect(await refreshTrustedList(config, later, serve("", 503))).toBe("unreachable");
    expect(
      await refreshTrustedList({ ...config, AGE_TRUSTED_LIST_SIGNERS: b64(old.signerDer) }, later, serve(xml)),
    ).toBe("signer");
    expect(
      await refreshTrustedList(config, later, async () => {
        throw new Error("offline");
      }),
    ).toBe("unreachable");
    expect(await stored()).toEqual([{ der: b64(issuer.rootDer), fetched_at: Math.floor(NOW.getTime() / 1000) }]);
  });

  it("reads the AV scheme's vocabulary: recognized is trusted, deprecated is not; XPath Filter 2.0 takes the signature out", async () => {
    const signer = await makeIssuer("List signer");
    const issuer = await loadTestIssuer(env.DB);
    const old = await makeIssuer("Old");
    const opts = { signers: [signer.signerDer], now: NOW };
    for (const transform of [ENVELOPED, FILTER2]) {
      const xml = await signedList(signer, issuer.signerDer, old.signerDer, {
        status: [`${AV}recognized`, `${AV}deprecated`],
        transform,
      });
      const list = await readTrustedList(xml, opts);
      if (!list.ok) throw new Error(list.reason);
      expect(list.services.map((s) => [s.name, s.trusted])).toEqual([
        ["Test AP", true],
        ["Old AP", false],
      ]);
      expect(list.roots).toEqual([issuer.signerDer]);
      expect(list.sequence).toBe(7);
      // Changed after signing: the filter takes only the signature out, nothing else.
      expect(await readTrustedList(xml.replace(`${AV}deprecated`, `${AV}recognized`), opts)).toMatchObject({
        ok: false,
        reason: "signature",
      });
    }
    // Any other XPath, or another filter, is refused rather than approximated.
    for (const other of [
      FILTER2.replace('Filter="subtract"', 'Filter="intersect"'),
      FILTER2.replace("/descendant::ds:Signature", "/descendant::ds:Signature[1]"),
      FILTER2.replace("/descendant::ds:Signature", "/descendant::tsl:TrustServiceProviderList"),
    ]) {
      const xml = await signedList(signer, issuer.signerDer, old.signerDer, { transform: other });
      expect(await readTrustedList(xml, opts)).toMatchObject({ ok: false, reason: "malformed" });
    }
  });

  it("refuses a list of another type or scheme, even well signed", async () => {
    const signer = await makeIssuer("List signer");
    const issuer = await loadTestIssuer(env.DB);
    const eu = "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric";
    const xml = await signedList(signer, issuer.rootDer, issuer.rootDer, { type: eu });
    const opts = { signers: [signer.signerDer], now: NOW };
    expect(await readTrustedList(xml, opts)).toMatchObject({ ok: false, reason: "scheme" });
    // The AV list is refused where another scheme is configured.
    const av = await signedList(signer, issuer.rootDer, issuer.rootDer);
    expect(await readTrustedList(av, { ...opts, scheme: { type: eu, rules: AV_SCHEME.rules } })).toMatchObject({
      ok: false,
      reason: "scheme",
    });
  });

  it("the real EU test list: its signature verifies against its pinned signer and gives its four recognized providers", async () => {
    const at = new Date("2025-10-10T00:00:00Z");
    const signer = der(realSigner);
    const list = await readTrustedList(realList, { signers: [signer], now: at });
    if (!list.ok) throw new Error(list.reason);
    expect([list.type, list.sequence, list.nextUpdate]).toEqual([AV_SCHEME.type, 1, new Date("2025-12-29T01:00:00Z")]);
    expect(list.services.map((s) => [s.provider, s.status.split("/").pop()])).toEqual([
      ["Age Verification Testing Issuer", "recognized"],
      ["TEST BE Proof of Age Attestation Provider", "deprecated"],
      ["TEST BE Proof of Age Attestation Provider", "recognized"],
      ["TEST LU Proof of Age Attestation Provider 1", "recognized"],
      ["TEST LU Proof of Age Attestation Provider 1", "recognized"],
    ]);
    // The providers' own document signers (end-entity), one P-256 and three RSA.
    const certs = list.roots.map(parseCertificate);
    expect(certs.map((c) => [c.ca, c.curve ?? `RSA ${c.rsaBits}`])).toEqual([
      [false, "P-256"],
      [false, "RSA 2048"],
      [false, "RSA 2048"],
      [false, "RSA 2048"],
    ]);
    // Each listed signer passes the document signer profile as the list names it (the reference
    // implementation's carries 1.3.130.2.0.0.1.2, the others no extendedKeyUsage at all); the three
    // without one would not pass as a certificate under a listed CA.
    expect(certs.map((c) => isDocumentSigner(c, { listed: true }))).toEqual([true, true, true, true]);
    expect(certs.map((c) => isDocumentSigner(c))).toEqual([true, false, false, false]);
    // Changed by one character: refused.
    const changed = realList.replace(
      "TEST LU Proof of Age Attestation Service 2",
      "TEST LU Proof of Age Attestation Service 3",
    );
    expect(await readTrustedList(changed, { signers: [signer], now: at })).toMatchObject({ reason: "signature" });
    // Another signer pinned, or past its NextUpdate: refused, with what it says still readable.
    const other = await makeIssuer("Other");
    expect(await readTrustedList(realList, { signers: [other.signerDer], now: at })).toMatchObject({
      reason: "signer",
      list: { sequence: 1 },
    });
    expect(await readTrustedList(realList, { signers: [signer], now: new Date("2026-01-05T00:00:00Z") })).toMatchObject(
      { reason: "stale" },
    );
  });

  it("the real list signed with XPath Filter 2.0 is read, and refused because its copy lost its providers after signing", async () => {
    // Its SignedInfo signature and its signed properties verify; the reference over the document does
    // not: the reference verifier's repository keeps it without its provider list. What matters here:
    // the transform itself is understood (it used to be refused unread as malformed).
    const result = await readTrustedList(realFilter2List, { signers: [der(realSigner)], now: new Date("2025-10-10") });
    expect(result).toMatchObject({ ok: false, reason: "signature", list: { type: AV_SCHEME.type, services: [] } });
  });

  it("a listed document signer is trusted directly, P-256 or RSA, and only that certificate", async () => {
    const ec = await loadTestIssuer(env.DB);
    const rsa = await makeIssuer("RSA provider", { rsa: true });
    const request = {
      nonce: "n2",
      clientId: "redirect_uri:https://x.test/r",
      responseUri: "https://x.test/r",
      now: NOW,
    };
    for (const issuer of [ec, rsa]) {
      const vp = await presentTestAttestation(issuer, "valid", request);
      // Its CA is not listed, the signer itself is.
      expect(await verifyPresentation(vp, { ...request, trustedRoots: [issuer.signerDer] })).toEqual({ ok: true });
      const other = await makeIssuer("Other provider");
      expect(await verifyPresentation(vp, { ...request, trustedRoots: [other.signerDer] })).toEqual({
        ok: false,
        reason: "issuer",
      });
    }
    // A listed signer outside its validity is not trusted.
    const vp = await presentTestAttestation(rsa, "valid", { ...request, now: new Date("2050-06-01") });
    expect(
      await verifyPresentation(vp, { ...request, now: new Date("2050-06-01"), trustedRoots: [rsa.signerDer] }),
    ).toEqual({ ok: false, reason: "issuer" });
  });

  it("a stored list that stopped refreshing is trusted until NextUpdate plus the grace period, with an alert from NextUpdate on", async () => {
    const signer = await makeIssuer("List signer");
    const issuer = await loadTestIssuer(env.DB);
    const xml = await signedList(signer, issuer.signerDer, issuer.rootDer);
    const config = {
      DB: env.DB,
      AGE_TRUSTED_LIST_URL: "https://list.test/av.xml",
      AGE_TRUSTED_LIST_SIGNERS: b64(signer.signerDer),
    };
    const s = (d: Date) => Math.floor(d.getTime() / 1000);
    expect(await refreshAndAlert(config, NOW, async () => new Response(xml))).toBe("stored");
    const next = s(new Date("2026-12-24T00:00:00Z"));
    expect(await trustedListState(env.DB, s(NOW))).toMatchObject({ state: "current", nextUpdate: next });
    const request = { nonce: "n3", clientId: "redirect_uri:https://x.test/r", responseUri: "https://x.test/r" };
    const verifyAt = async (at: number) => {
      const now = new Date(at * 1000);
      const vp = await presentTestAttestation(issuer, "valid", { ...request, now });
      return verifyPresentation(vp, { ...request, now, trustedRoots: await usableTrustedRoots(env.DB, at) });
    };
    expect(await verifyAt(next - 60)).toEqual({ ok: true });

    // The Commission's site down from then on: the operator is alerted every day, the list still used in the grace.
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const down = async () => new Response("", { status: 503 });
      expect(await refreshAndAlert(config, new Date((next + 86_400) * 1000), down)).toBe("unreachable");
      const alerts = errors.mock.calls.map((c) => String(c[0])).filter((l) => l.includes("age.trusted_list_overdue"));
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toContain('"nextUpdate":"2026-12-24T00:00:00.000Z"');
      expect(await trustedListState(env.DB, next + 86_400)).toMatchObject({ state: "overdue" });
      expect(await verifyAt(next + TRUSTED_LIST_GRACE_S - 60)).toEqual({ ok: true });
      // After the grace period no provider is trusted.
      expect(await trustedListState(env.DB, next + TRUSTED_LIST_GRACE_S + 60)).toMatchObject({ state: "expired" });
      expect(await verifyAt(next + TRUSTED_LIST_GRACE_S + 60)).toMatchObject({ ok: false, reason: "issuer" });
    } finally {
      errors.mockRestore();
    }
  });
});
