import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Tagged, cborMap, decodeCbor, embed, encodeCbor, type CborValue } from "~/lib/age/cbor.server";
import { MAX_DEVICE_RESPONSE_CHARS, verifyPresentation, type PresentationContext } from "~/lib/age/mdoc.server";
import {
  certificate,
  issueTestPresentation,
  makeIssuer,
  presentTestAttestation,
  type SignerFlaws,
} from "~/lib/age/test-issuer.server";
import { verifyChain } from "~/lib/age/x509.server";
import { loadTestIssuer } from "~/models/age-check.server";

// The cryptographic core of age assurance (decision 184), inside workerd: WebCrypto only, no eval.
const NOW = new Date("2026-11-24T12:00:00Z");
const DAY = 86_400_000;
const request = {
  nonce: "n-0123456789abcdef",
  clientId: "redirect_uri:https://de.localhost/age/response",
  responseUri: "https://de.localhost/age/response",
  now: NOW,
};

async function context(over: Partial<PresentationContext> = {}): Promise<PresentationContext> {
  const issuer = await loadTestIssuer(env.DB);
  return { ...request, trustedRoots: [issuer.rootDer], ...over };
}

const b64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const unb64url = (s: string) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const m = (v: CborValue) => v as Map<CborValue, CborValue>;

describe("age mdoc verification", () => {
  it("loads the same test root twice", async () => {
    const a = await loadTestIssuer(env.DB);
    const b = await loadTestIssuer(env.DB);
    expect(a.rootDer.length).toBeGreaterThan(200);
    expect(b.rootDer).toEqual(a.rootDer);
    expect(b.signerDer).toEqual(a.signerDer);
    expect(await verifyChain([a.signerDer], [a.rootDer], NOW)).not.toBeNull();
  });

  it("accepts a valid test attestation for this request", async () => {
    const issuer = await loadTestIssuer(env.DB);
    const vp = await presentTestAttestation(issuer, "valid", request);
    expect(await verifyPresentation(vp, await context())).toEqual({ ok: true });
    // The same with the root included in the x5chain, as some wallets send it.
    expect(await verifyChain([issuer.signerDer, issuer.rootDer], [issuer.rootDer], NOW)).not.toBeNull();
  });

  it("refuses a presentation made for another nonce, client id or response URI", async () => {
    const issuer = await loadTestIssuer(env.DB);
    const vp = await presentTestAttestation(issuer, "valid", request);
    expect(await verifyPresentation(vp, await context({ nonce: "n-other" }))).toEqual({ ok: false, reason: "nonce" });
    expect(await verifyPresentation(vp, await context({ clientId: "redirect_uri:https://evil.example/r" }))).toEqual({
      ok: false,
      reason: "nonce",
    });
    expect(await verifyPresentation(vp, await context({ responseUri: "https://evil.example/r" }))).toEqual({
      ok: false,
      reason: "nonce",
    });
  });

  it("refuses an expired attestation, and one not yet valid", async () => {
    const issuer = await loadTestIssuer(env.DB);
    const vp = await presentTestAttestation(issuer, "expired", request);
    expect(await verifyPresentation(vp, await context())).toEqual({ ok: false, reason: "expired" });
    const valid = await presentTestAttestation(issuer, "valid", request);
    expect(await verifyPresentation(valid, await context({ now: new Date(NOW.getTime() + 91 * DAY) }))).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(await verifyPresentation(valid, await context({ now: new Date(NOW.getTime() - 2 * DAY) }))).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("refuses an issuer outside the trusted roots", async () => {
    const issuer = await loadTestIssuer(env.DB);
    const vp = await presentTestAttestation(issuer, "wrong_issuer", request);
    expect(await verifyPresentation(vp, await context())).toEqual({ ok: false, reason: "issuer" });
    // And the genuine one when its root is not trusted (production without the test root).
    const genuine = await presentTestAttestation(issuer, "valid", request);
    expect(await verifyPresentation(genuine, await context({ trustedRoots: [] }))).toEqual({
      ok: false,
      reason: "issuer",
    });
    // A certificate outside its validity period is not trusted either.
    expect(await verifyPresentation(genuine, await context({ now: new Date("2051-01-01T00:00:00Z") }))).toEqual({
      ok: false,
      reason: "issuer",
    });
  });

  it("a listed document signer vouches for itself only, never as a CA for another certificate", async () => {
    const issuer = await loadTestIssuer(env.DB);
    // The AV trusted list names the providers' document signers: such a certificate is trusted as it is.
    expect(await verifyChain([issuer.signerDer], [issuer.signerDer], NOW)).not.toBeNull();
    // It is no CA: a certificate it signed is not trusted through it, with or without it in the chain.
    const ds = await crypto.subtle.importKey("jwk", issuer.signerKey, { name: "ECDSA", namedCurve: "P-256" }, false, [
      "sign",
    ]);
    const leaf = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const leafDer = await certificate({
      subject: "L",
      issuer: "Development Age Verification Test DS",
      subjectKey: leaf.publicKey,
      issuerKey: ds,
      ca: false,
    });
    expect(await verifyChain([leafDer, issuer.signerDer], [issuer.signerDer], NOW)).toBeNull();
    expect(await verifyChain([leafDer], [issuer.signerDer], NOW)).toBeNull();
  });

  it("follows an intermediate CA within the root's path length, and no further", async () => {
    const pair = () =>
      crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
        "sign",
        "verify",
      ]) as Promise<CryptoKeyPair>;
    const [root, inter, leaf] = [await pair(), await pair(), await pair()];
    const make = (subject: string, issuer: string, s: CryptoKeyPair, i: CryptoKeyPair, ca: boolean, pathLen?: number) =>
      certificate({ subject, issuer, subjectKey: s.publicKey, issuerKey: i.privateKey, ca, pathLen });
    const rootDer = await make("R", "R", root, root, true, 1);
    const interDer = await make("I", "R", inter, root, true);
    const leafDer = await make("L", "I", leaf, inter, false);
    expect(await verifyChain([leafDer, interDer], [rootDer], NOW)).not.toBeNull();
    expect(await verifyChain([leafDer, interDer, rootDer], [rootDer], NOW)).not.toBeNull();
    expect(await verifyChain([leafDer], [rootDer], NOW)).toBeNull(); // the intermediate missing
    const strictRoot = await make("R", "R", root, root, true, 0);
    expect(await verifyChain([leafDer, interDer], [strictRoot], NOW)).toBeNull();
    // A document signer cannot act as a CA in a path either.
    const notCa = await make("I", "R", inter, root, false);
    expect(await verifyChain([leafDer, notCa], [rootDer], NOW)).toBeNull();
  });

  it("refuses a changed disclosed item (digest)", async () => {
    const issuer = await loadTestIssuer(env.DB);
    const vp = await presentTestAttestation(issuer, "under_18", request);
    // Flip age_over_18 from false to true after issuance: the MSO's digest no longer matches.
    const response = m(decodeCbor(unb64url(vp)));
    const doc = m((response.get("documents") as CborValue[])[0]);
    const items = m(m(doc.get("issuerSigned")).get("nameSpaces")).get("eu.europa.ec.av.1") as CborValue[];
    const item = m(decodeCbor((items[0] as Tagged).value as Uint8Array));
    item.set("elementValue", true);
    items[0] = embed(item);
    const tampered = b64url(encodeCbor(response));
    expect(await verifyPresentation(tampered, await context())).toEqual({ ok: false, reason: "digest" });
  });

  it("refuses a changed MSO (issuer signature)", async () => {
    const issuer = await loadTestIssuer(env.DB);
    const vp = await presentTestAttestation(issuer, "valid", request);
    const response = m(decodeCbor(unb64url(vp)));
    const doc = m((response.get("documents") as CborValue[])[0]);
    const auth = m(doc.get("issuerSigned")).get("issuerAuth") as CborValue[];
    const mso = m(decodeCbor((decodeCbor(auth[2] as Uint8Array) as Tagged).value as Uint8Array));
    m(mso.get("validityInfo")).set("validUntil", new Tagged(0, "2099-01-01T00:00:00Z"));
    auth[2] = encodeCbor(embed(mso));
    expect(await verifyPresentation(b64url(encodeCbor(response)), await context())).toEqual({
      ok: false,
      reason: "signature",
    });
  });

  it("refuses age_over_18 false", async () => {
    const issuer = await loadTestIssuer(env.DB);
    const vp = await presentTestAttestation(issuer, "under_18", request);
    expect(await verifyPresentation(vp, await context())).toEqual({ ok: false, reason: "under_18" });
  });

  it("refuses another doctype and a response missing the claim", async () => {
    const issuer = await loadTestIssuer(env.DB);
    const validity = { validFrom: new Date(NOW.getTime() - DAY), validUntil: new Date(NOW.getTime() + DAY) };
    const mdl = await issueTestPresentation(issuer, { ...validity, docType: "org.iso.18013.5.1.mDL" }, request);
    expect(await verifyPresentation(mdl, await context())).toEqual({ ok: false, reason: "doctype" });
    const noClaim = await issueTestPresentation(issuer, { ...validity, claims: [["age_over_21", true]] }, request);
    expect(await verifyPresentation(noClaim, await context())).toEqual({ ok: false, reason: "claim" });
    const notBoolean = await issueTestPresentation(issuer, { ...validity, claims: [["age_over_18", "yes"]] }, request);
    expect(await verifyPresentation(notBoolean, await context())).toEqual({ ok: false, reason: "claim" });
  });

  it("refuses malformed input without throwing", async () => {
    const ctx = await context();
    const bad = [
      "",
      "!!!not base64!!!",
      b64url(Uint8Array.of(0xa1, 0x61)), // truncated map
      b64url(Uint8Array.of(0x9f, 0x01, 0xff)), // indefinite length
      b64url(Uint8Array.of(0xa2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02)), // duplicate key
      b64url(Uint8Array.of(0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)), // array of 2^64-1 items
      b64url(new Uint8Array(64).fill(0x81)), // nested too deep
      b64url(
        encodeCbor(
          cborMap([
            ["version", "1.0"],
            ["documents", [1]],
            ["status", 0],
          ]),
        ),
      ),
      b64url(
        encodeCbor(
          cborMap([
            ["version", "1.0"],
            ["documents", []],
            ["status", 0],
          ]),
        ),
      ),
    ];
    for (const input of bad) expect(await verifyPresentation(input, ctx)).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuses a 1 MB body before parsing it", async () => {
    const issuer = await loadTestIssuer(env.DB);
    const vp = await presentTestAttestation(issuer, "valid", request);
    const huge = vp + "A".repeat(1024 * 1024);
    expect(huge.length).toBeGreaterThan(MAX_DEVICE_RESPONSE_CHARS);
    expect(await verifyPresentation(huge, await context())).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuses an element disclosed twice: age_over_18 [false, true] is not an adult", async () => {
    const issuer = await loadTestIssuer(env.DB);
    const validity = { validFrom: new Date(NOW.getTime() - DAY), validUntil: new Date(NOW.getTime() + DAY) };
    for (const claims of [
      [
        ["age_over_18", false],
        ["age_over_18", true],
      ],
      [
        ["age_over_18", true],
        ["age_over_18", true],
      ],
    ] as [string, CborValue][][]) {
      const twice = await issueTestPresentation(issuer, { ...validity, claims }, request);
      expect(await verifyPresentation(twice, await context())).toEqual({ ok: false, reason: "malformed" });
    }
  });

  it("refuses a trusted signer whose certificate is no mdoc document signer", async () => {
    const validity = { validFrom: new Date(NOW.getTime() - DAY), validUntil: new Date(NOW.getTime() + DAY) };
    const flawed: [string, SignerFlaws][] = [
      ["no extended key usage", { eku: null }],
      ["TLS server purpose instead of the mdoc one", { eku: "2b06010505070301" }],
      ["no key usage", { noKeyUsage: true }],
      ["marked a CA", { markedCa: true }],
    ];
    for (const [label, flaws] of flawed) {
      const issuer = await makeIssuer("Flawed", { flaws });
      const vp = await issueTestPresentation(issuer, validity, request);
      const ctx = await context({ trustedRoots: [issuer.rootDer] });
      expect(await verifyPresentation(vp, ctx), label).toEqual({ ok: false, reason: "issuer" });
    }
    // The same issuer without a flaw passes: the refusals are the profile's.
    const sound = await makeIssuer("Sound", {});
    const vp = await issueTestPresentation(sound, validity, request);
    expect(await verifyPresentation(vp, await context({ trustedRoots: [sound.rootDer] }))).toEqual({ ok: true });
  });

  it("refuses an MSO signed outside its signer certificate's validity (ISO 18013-5 9.3.1)", async () => {
    // The signer is valid from ten days before NOW; the attestation itself is valid now.
    const issuer = await makeIssuer("Young", {
      flaws: { from: NOW.getTime() - 10 * DAY, until: NOW.getTime() + 400 * DAY },
    });
    const ctx = await context({ trustedRoots: [issuer.rootDer] });
    const validity = { validFrom: new Date(NOW.getTime() - DAY), validUntil: new Date(NOW.getTime() + DAY) };
    const before = await issueTestPresentation(
      issuer,
      { ...validity, signed: new Date(NOW.getTime() - 20 * DAY) },
      request,
    );
    expect(await verifyPresentation(before, ctx)).toEqual({ ok: false, reason: "issuer" });
    const within = await issueTestPresentation(
      issuer,
      { ...validity, signed: new Date(NOW.getTime() - 5 * DAY) },
      request,
    );
    expect(await verifyPresentation(within, ctx)).toEqual({ ok: true });
  });
});
