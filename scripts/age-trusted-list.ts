/**
 * Checks a trusted list of age verification attestation providers before it is configured
 * (decision 198), with the same reader the Worker uses:
 *   npm run age:trusted-list -- <file-or-url> [--signers <base64 DER,…>] [--at <ISO date>]
 * The pinned signers default to AGE_TRUSTED_LIST_SIGNERS from the environment. Prints the scheme, its
 * sequence number, NextUpdate, whether the signature verifies against a pinned signer, and each
 * provider (name, certificate subject, key algorithm, validity). Exits 0 only when the Worker would
 * take the list in (at --at, default now) with at least one trusted provider.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import {
  AV_SCHEME,
  TRUSTED_LIST_GRACE_S,
  readTrustedList,
  type TrustedListInfo,
} from "../app/lib/age/trusted-list.server.ts";
import { distinguishedName, parseCertificate } from "../app/lib/age/x509.server.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { signers: { type: "string" }, at: { type: "string" } },
});
const fail = (message: string): never => {
  console.error(`age:trusted-list: ${message}`);
  process.exit(2);
};
const source = positionals[0] ?? fail("usage: npm run age:trusted-list -- <file-or-url> [--signers …] [--at …]");
const now = values.at ? new Date(values.at) : new Date();
if (Number.isNaN(now.getTime())) fail(`--at ${values.at} is not a date`);
const der = (b64: string) => Uint8Array.from(atob(b64.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
const signers = (values.signers ?? process.env.AGE_TRUSTED_LIST_SIGNERS ?? "")
  .split(",")
  .filter((s) => s.trim())
  .map(der);

let xml: string;
if (/^https?:\/\//.test(source)) {
  const res = await fetch(source);
  if (!res.ok) fail(`${source}: HTTP ${res.status}`);
  xml = await res.text();
} else xml = await readFile(source, "utf8");

const day = (d: Date) => d.toISOString().replace(/\.000Z$/, "Z");
const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");
const sha256 = async (b: Uint8Array) =>
  Buffer.from(await crypto.subtle.digest("SHA-256", b as Uint8Array<ArrayBuffer>)).toString("hex");

function certLine(bytes: Uint8Array, listed = true): string {
  try {
    const c = parseCertificate(bytes);
    const key = c.curve ? `EC ${c.curve}` : c.rsaBits ? `RSA ${c.rsaBits}` : "unsupported key";
    const role = c.ca ? "CA" : listed ? "end-entity (trusted as listed)" : "end-entity";
    const valid = `${day(new Date(c.notBefore))} to ${day(new Date(c.notAfter))}`;
    const expired = now.getTime() > c.notAfter || now.getTime() < c.notBefore ? " — NOT VALID at --at" : "";
    return `${distinguishedName(c)}\n      ${key}, ${role}, valid ${valid}${expired}`;
  } catch {
    return "(not a certificate this reader understands)";
  }
}

const result = await readTrustedList(xml, { signers, now });
const list: TrustedListInfo | undefined = result.ok ? result : result.list;
if (!list) fail(`refused: ${result.ok ? "" : result.reason} (not a TS 119 612 list this reader can read)`);
const info = list!;
const reason = result.ok ? null : result.reason;

console.log(`Scheme:          ${info.type || "(none)"}${info.type === AV_SCHEME.type ? " (EU age verification)" : ""}`);
console.log(`Scheme rules:    ${info.rules.join(", ") || "(none)"}`);
console.log(`Operator:        ${info.operator}`);
console.log(`Sequence number: ${info.sequence ?? "(none)"}`);
console.log(`Issued:          ${day(info.issued)}`);
if (info.nextUpdate) {
  const late = Math.floor((now.getTime() - info.nextUpdate.getTime()) / 1000);
  const note =
    late <= 0
      ? "current"
      : late <= TRUSTED_LIST_GRACE_S
        ? "PAST: still used for the grace period, the operator is alerted"
        : `PAST by ${Math.floor(late / 86_400)} days: refused`;
  console.log(`NextUpdate:      ${day(info.nextUpdate)} (${note} at ${day(now)})`);
} else console.log("NextUpdate:      (none: a closed list)");

if (reason === "scheme") console.log(`Signature:       not checked: not a list of the AV scheme (${AV_SCHEME.type})`);
else if (reason === "signature") console.log("Signature:       DOES NOT VERIFY");
else if (reason === "malformed") console.log("Signature:       not verifiable: missing, or a form this reader refuses");
else {
  const pinned = reason !== "signer" ? "verifies, signer pinned" : "verifies, but its signer is NOT pinned";
  console.log(`Signature:       ${pinned}`);
}
if (info.signer) {
  console.log(`Signer:          ${certLine(info.signer, false)}`);
  console.log(`      SHA-256 ${await sha256(info.signer)}`);
  if (reason === "signer")
    console.log(`      to pin it (after checking it out of band): AGE_TRUSTED_LIST_SIGNERS=${b64(info.signer)}`);
}

const trusted = info.services.filter((s) => s.trusted);
console.log(`\nTrusted providers: ${trusted.length}`);
for (const s of trusted) {
  console.log(`  - ${s.provider} · ${s.name} [${s.status.split("/").pop()}]`);
  for (const c of s.certificates) console.log(`      ${certLine(c)}`);
}
const others = info.services.filter((s) => !s.trusted);
if (others.length) console.log(`Not trusted (status): ${others.length}`);
for (const s of others) console.log(`  - ${s.provider} · ${s.name} [${s.status.split("/").pop()}]`);

const accepted = reason === null && trusted.length > 0;
console.log(
  `\n${accepted ? "OK: the Worker would take this list in." : `REFUSED: ${reason ?? "no trusted provider"}.`}`,
);
process.exit(accepted ? 0 : 1);
