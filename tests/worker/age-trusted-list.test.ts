import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { verifyPresentation } from "~/lib/age/mdoc.server";
import { loadTestIssuer, makeIssuer, presentTestAttestation, type TestIssuer } from "~/lib/age/test-issuer.server";
import { excC14n, parseXml, readTrustedList, type XmlElement } from "~/lib/age/trusted-list.server";
import { refreshTrustedList } from "~/models/age-trust.server";

// The trusted list of attestation providers (ETSI TS 119 612) and its enveloped signature (decision 184).
const NOW = new Date("2026-11-24T12:00:00Z");
const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

/** A generated list: one granted provider (the test root), one withdrawn, signed by `signer`. */
async function signedList(
  signer: TestIssuer,
  granted: Uint8Array,
  withdrawn: Uint8Array,
  nextUpdate = "2026-12-24T00:00:00Z",
) {
  const service = (name: string, status: string, cert: Uint8Array) => `
      <tsl:TSPService><tsl:ServiceInformation>
        <tsl:ServiceTypeIdentifier>http://uri.etsi.org/TrstSvc/Svctype/CA/PKC</tsl:ServiceTypeIdentifier>
        <tsl:ServiceName><tsl:Name xml:lang="en">${name}</tsl:Name></tsl:ServiceName>
        <tsl:ServiceDigitalIdentity><tsl:DigitalId><tsl:X509Certificate>${b64(cert)}</tsl:X509Certificate></tsl:DigitalId></tsl:ServiceDigitalIdentity>
        <tsl:ServiceStatus>http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/${status}</tsl:ServiceStatus>
      </tsl:ServiceInformation></tsl:TSPService>`;
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<!-- generated for the tests -->
<tsl:TrustServiceStatusList xmlns:tsl="http://uri.etsi.org/02231/v2#" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="tsl" TSLTag="http://uri.etsi.org/19612/TSLTag">
  <tsl:SchemeInformation>
    <tsl:TSLVersionIdentifier>6</tsl:TSLVersionIdentifier>
    <tsl:SchemeOperatorName><tsl:Name xml:lang="en">European Commission &amp; test</tsl:Name></tsl:SchemeOperatorName>
    <tsl:ListIssueDateTime>2026-11-01T00:00:00Z</tsl:ListIssueDateTime>
    <tsl:NextUpdate><tsl:dateTime>${nextUpdate}</tsl:dateTime></tsl:NextUpdate>
  </tsl:SchemeInformation>
  <tsl:TrustServiceProviderList>
    <tsl:TrustServiceProvider><tsl:TSPServices>${service("Test AP", "granted", granted)}${service("Old AP", "withdrawn", withdrawn)}
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
<ds:Reference URI=""><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></ds:Transforms>
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
    expect(await readTrustedList(changed, opts)).toEqual({ ok: false, reason: "signature" });
    // A changed SignedInfo (an attribute added) breaks the signature itself.
    const resigned = xml.replace('<ds:Reference URI="">', '<ds:Reference URI="" Id="r">');
    expect(await readTrustedList(resigned, opts)).toEqual({ ok: false, reason: "signature" });
    expect(await readTrustedList(xml, { ...opts, signers: [old.signerDer] })).toEqual({ ok: false, reason: "signer" });
    expect(await readTrustedList(xml, { ...opts, now: new Date("2027-01-01T00:00:00Z") })).toEqual({
      ok: false,
      reason: "stale",
    });
    const dtd = xml.replace("<!-- generated for the tests -->", '<!DOCTYPE x [<!ENTITY e "boom">]>');
    expect(await readTrustedList(dtd, opts)).toEqual({ ok: false, reason: "malformed" });
    expect(await readTrustedList("<tsl:TrustServiceStatusList", opts)).toEqual({ ok: false, reason: "malformed" });
    // Unsigned: the signature removed altogether.
    const unsigned = xml.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, "");
    expect(await readTrustedList(unsigned, opts)).toEqual({ ok: false, reason: "malformed" });
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
});
