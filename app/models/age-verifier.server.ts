/**
 * What only the age check's own requests run: the presentation's verification (CBOR, COSE, X.509), the
 * Digital Credentials API's encryption, the development wallet's issuer and the QR code. age-check.server.ts
 * imports this on first use, so the Worker does not evaluate it when it starts (decision 234).
 */
export { verifyPresentation } from "~/lib/age/mdoc.server";
export { newStoredIssuer, presentTestAttestation, storedIssuer } from "~/lib/age/test-issuer.server";
export {
  DC_PROTOCOL,
  dcapiSessionTranscript,
  deviceRequest,
  encryptionInfo,
  newReaderKey,
  openDcResponse,
} from "~/lib/age/dcapi.server";
export { renderSVG } from "uqr";
