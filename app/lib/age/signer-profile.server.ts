/**
 * The document signer certificate's profile, checked apart from how the certificate came to be
 * trusted (a path to a listed CA, or a listed signer certificate taken as it is), so every way of
 * trusting a signer asks the same (decision 197). ISO 18013-5 Annex B (Table B.3) and §9.3.1:
 * - extendedKeyUsage holds the mdoc document signer purpose 1.0.18013.5.1.2 (or 1.3.130.2.0.0.1.2, which
 *   the EU age verification reference implementation's signer carries); a certificate with no
 *   extendedKeyUsage at all is taken only when the trusted list names it itself as a provider's signer:
 *   the real AV list's other providers' signers carry none (decision 197, addendum);
 * - keyUsage is present and asserts digitalSignature;
 * - it is no CA (basicConstraints cA absent or false): a signer may not vouch for other certificates;
 * - the MSO's `signed` date lies within the certificate's validity period.
 */
import { KU_DIGITAL_SIGNATURE, type Certificate } from "./x509.server";

/** 1.0.18013.5.1.2 (mdoc document signer), DER-encoded OID body as hex. */
export const EKU_MDOC_DS = "28818c5d050102";

/** 1.3.130.2.0.0.1.2, the document signer purpose of the EU age verification reference implementation. */
export const EKU_AV_REFERENCE_DS = "2b81020200000102";

/**
 * Whether `cert` may sign mdoc MSOs: the purpose, the key usage, and not a CA. `listed`: the trusted
 * list names this very certificate (not a CA above it) as an attestation service's signer.
 */
export function isDocumentSigner(
  cert: Pick<Certificate, "extKeyUsage" | "keyUsage" | "ca">,
  o: { listed: boolean } = { listed: false },
): boolean {
  const purpose =
    cert.extKeyUsage === undefined
      ? o.listed
      : cert.extKeyUsage.includes(EKU_MDOC_DS) || cert.extKeyUsage.includes(EKU_AV_REFERENCE_DS);
  return purpose && cert.keyUsage !== undefined && (cert.keyUsage & KU_DIGITAL_SIGNATURE) !== 0 && !cert.ca;
}

/** Whether the MSO was signed (`signed`, ms) while the signer's certificate was valid. */
export function signedWhileValid(cert: Pick<Certificate, "notBefore" | "notAfter">, signedMs: number): boolean {
  return cert.notBefore <= signedMs && signedMs <= cert.notAfter;
}
