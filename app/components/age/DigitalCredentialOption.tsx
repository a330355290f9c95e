/**
 * The W3C Digital Credentials API path of /age-check (ISO 18013-7 Annex C, decision 185): where the
 * browser offers `navigator.credentials.get({ digital })`, a button asks the wallet on this device
 * first; the wallet's encrypted answer goes to the page's own action, which verifies it on the server.
 * Absent API: nothing is shown (the QR code and the link stay as they are); a refusal says so and
 * leaves them in place. Ships with the /age-check route only.
 */
import { useEffect, useState } from "react";
import { useSubmit } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";

export interface DcRequest {
  protocol: string;
  deviceRequest: string;
  encryptionInfo: string;
}

type DigitalCredentialClass = { userAgentAllowsProtocol?: (protocol: string) => boolean };

export function DigitalCredentialOption({ dc, state, next }: { dc: DcRequest; state: string; next: string }) {
  const { t } = useTranslation("age");
  const submit = useSubmit();
  const [available, setAvailable] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const api = (window as { DigitalCredential?: DigitalCredentialClass }).DigitalCredential;
    setAvailable(!!api && !!navigator.credentials && (api.userAgentAllowsProtocol?.(dc.protocol) ?? true));
  }, [dc.protocol]);
  if (!available) return null;

  async function ask() {
    setFailed(false);
    try {
      const { deviceRequest, encryptionInfo } = dc;
      const options = { digital: { requests: [{ protocol: dc.protocol, data: { deviceRequest, encryptionInfo } }] } };
      const credential = (await navigator.credentials.get(options as CredentialRequestOptions)) as {
        data?: unknown;
      } | null;
      // `data` is an object; early implementations gave it as a JSON string.
      const data = typeof credential?.data === "string" ? JSON.parse(credential.data) : credential?.data;
      const response = (data as { response?: unknown } | undefined)?.response;
      if (typeof response !== "string") throw new Error("no response");
      submit({ intent: "dc", state, next, response }, { method: "post" });
    } catch {
      setFailed(true);
    }
  }

  return (
    <div className="card age-dc">
      <p>{t("dcHint")}</p>
      <button type="button" className="btn btn-primary btn-lg" onClick={ask} data-testid="age-dc">
        {t("dcButton")}
      </button>
      {failed ? (
        <p className="text-muted" role="status">
          {t("dcRefused")}
        </p>
      ) : null}
    </div>
  );
}
