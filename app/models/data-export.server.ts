/**
 * The data export as a page a person can read (GDPR right of access): the same data as the JSON
 * download (exportMemberData), in sections with translated titles, each row's fields under the names
 * the file uses, moments as dates in the member's language and time zone UTC, yes/no translated.
 */
import type { TFunction } from "i18next";
import type { Language } from "~/lib/constants";
import type { exportMemberData } from "./accounts/export.server";

type Export = Awaited<ReturnType<typeof exportMemberData>>;
type Row = Record<string, unknown>;

/** The export's sections in the order the page shows them. */
export const EXPORT_SECTIONS = [
  "user",
  "profile",
  "interests",
  "photos",
  "likes_given",
  "likes_received",
  "blocks",
  "conversations",
  "messages_sent",
  "credit_ledger",
  "payments",
  "notifications_disabled",
  "discount_codes",
  "age_proofs",
  "age_requests",
] as const;

// Fields stored as Unix seconds: shown as a date and time.
const MOMENT = /(_at|^expires|_until|_seen)$/;

function shown(field: string, value: unknown, lng: Language, t: TFunction): string {
  if (value === null || value === undefined || value === "") return "–";
  if (typeof value === "boolean") return t(value ? "data.yes" : "data.no");
  if (typeof value === "number" && MOMENT.test(field) && value > 0)
    return new Intl.DateTimeFormat(lng, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(
      new Date(value * 1000),
    );
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** One section: a title and its rows, each row a list of [field, shown value]. */
export function exportView(data: Export, lng: Language, t: TFunction) {
  const rowsOf = (value: unknown): Row[] =>
    Array.isArray(value)
      ? value.map((v) => (v && typeof v === "object" ? (v as Row) : { value: v }))
      : value && typeof value === "object"
        ? [value as Row]
        : [];
  return {
    exportedAt: new Intl.DateTimeFormat(lng, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(
      new Date(data.exported_at),
    ),
    sections: EXPORT_SECTIONS.map((key) => {
      const rows = key === "interests" ? [{ interests: data.interests.join(", ") }] : rowsOf(data[key]);
      return {
        key,
        title: t(`data.sections.${key}`),
        rows: rows
          .filter((r) => Object.keys(r).length > 0 && !(key === "interests" && !data.interests.length))
          .map((r) => Object.entries(r).map(([field, value]) => [field, shown(field, value, lng, t)] as const)),
      };
    }),
  };
}
