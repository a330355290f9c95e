import { describe, expect, it } from "vitest";
import { makeIssuer } from "~/lib/age/test-issuer.server";
import { DerError, distinguishedName, ecdsaDerToRaw, parseCertificate } from "~/lib/age/x509.server";

/** Parses `der` the way the chain check does; anything but a certificate or a DerError is a crash. */
function outcome(der: Uint8Array): "parsed" | "refused" {
  try {
    const c = parseCertificate(der);
    distinguishedName(c);
    ecdsaDerToRaw(c.signature, 32);
    return "parsed";
  } catch (e) {
    if (e instanceof DerError) return "refused";
    throw e;
  }
}

describe("the DER certificate parser on hostile input", () => {
  it("refuses every truncation of a real certificate cleanly", async () => {
    const { signerDer } = await makeIssuer("x509 unit");
    expect(outcome(signerDer)).toBe("parsed");
    for (let n = 0; n < signerDer.length; n++) expect(outcome(signerDer.subarray(0, n))).toBe("refused");
  });

  it("refuses or parses, never crashes, when any one byte is zeroed, maxed or shrunk", async () => {
    const { signerDer, rootDer } = await makeIssuer("x509 unit");
    const crashes: string[] = [];
    for (const der of [signerDer, rootDer]) {
      for (let i = 0; i < der.length; i++) {
        for (const v of [0x00, 0x01, 0x80, 0xff, Math.max(0, (der[i] ?? 0) - 1)]) {
          const bad = der.slice();
          bad[i] = v;
          try {
            outcome(bad);
          } catch (e) {
            crashes.push(`byte ${i} = ${v}: ${String(e)}`);
          }
        }
      }
    }
    expect(crashes).toEqual([]);
  });
});
