/**
 * STUB of the mdoc verifier (issue 27): the real one (COSE signature over the MSO, chain to a trusted
 * root, digests, validity, doctype, session transcript) is built on branch a27a and replaces this
 * file at merge. Here a "presentation" is base64url JSON {answer, nonce, clientId, responseUri, root},
 * so the flow around it runs end to end. Decision 185.
 */
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
export interface PresentationContext {
  nonce: string;
  clientId: string;
  responseUri: string;
  now: Date;
  trustedRoots: Uint8Array[] /* DER */;
}

type StubPresentation = { answer: string; nonce: string; clientId: string; responseUri: string; root: string };

export function stubDecode(deviceResponse: string): StubPresentation | null {
  try {
    const b64 = deviceResponse.replace(/-/g, "+").replace(/_/g, "/");
    const json = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))));
    return json && typeof json === "object" && typeof json.answer === "string" ? (json as StubPresentation) : null;
  } catch {
    return null;
  }
}

export function stubRootId(der: Uint8Array): string {
  return btoa(String.fromCharCode(...der));
}

export async function verifyPresentation(deviceResponse: string, ctx: PresentationContext): Promise<AgeVerification> {
  const p = stubDecode(deviceResponse);
  if (!p) return { ok: false, reason: "malformed" };
  if (p.nonce !== ctx.nonce || p.clientId !== ctx.clientId || p.responseUri !== ctx.responseUri) {
    return { ok: false, reason: "nonce" };
  }
  if (p.answer === "wrong_issuer" || !ctx.trustedRoots.some((r) => stubRootId(r) === p.root)) {
    return { ok: false, reason: "issuer" };
  }
  if (p.answer === "under_18") return { ok: false, reason: "under_18" };
  if (p.answer === "expired") return { ok: false, reason: "expired" };
  return p.answer === "valid" ? { ok: true } : { ok: false, reason: "malformed" };
}
