/**
 * The document signer certificate's profile, checked apart from how the certificate came to be
 * trusted (a path to a listed CA, or a listed signer certificate taken as it is), so every way of
 * trusting a signer asks the same (decision 197). ISO 18013-5 Annex B (Table B.3) and §9.3.1:
 * - extendedKeyUsage holds the mdoc document signer purpose 1.0.18013.5.1.2;
 * - keyUsage is present and asserts digitalSignature;
 * - it is no CA (basicConstraints cA absent or false): a signer may not vouch for other certificates;
 * - the MSO's `signed` date lies within the certificate's validity period.
 */
import { KU_DIGITAL_SIGNATURE, type Certificate } from "./x509.server";

/** 1.0.18013.5.1.2 (mdoc document signer), DER-encoded OID body as hex. */
export const EKU_MDOC_DS = "28818c5d050102";

/** Whether `cert` may sign mdoc MSOs: the purpose, the key usage, and not a CA. */
export function isDocumentSigner(cert: Pick<Certificate, "extKeyUsage" | "keyUsage" | "ca">): boolean {
  return (
    !!cert.extKeyUsage?.includes(EKU_MDOC_DS) &&
    cert.keyUsage !== undefined &&
    (cert.keyUsage & KU_DIGITAL_SIGNATURE) !== 0 &&
    !cert.ca
  );
}

/** Whether the MSO was signed (`signed`, ms) while the signer's certificate was valid. */
export function signedWhileValid(cert: Pick<Certificate, "notBefore" | "notAfter">, signedMs: number): boolean {
  return cert.notBefore <= signedMs && signedMs <= cert.notAfter;
}
