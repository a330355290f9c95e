/** The console's start page: one tile per part the role opens, with its count, in one round trip. */
import { and, count, eq, gte, isNotNull, isNull } from "drizzle-orm";
import { getDb, schema } from "../../../db/client";
import { nowS } from "~/lib/dates";
import { mayOpen, type OperatorRole } from "./operators.server";

export type Tile = { href: string; label: string; count: number | null };

export async function consoleOverview(d1: D1Database, role: OperatorRole, now = nowS()): Promise<Tile[]> {
  const db = getDb(d1);
  const P = schema.payments;
  const [[audit], [ops], [cases], [photos], [alerts], [failed]] = await db.batch([
    db
      .select({ n: count() })
      .from(schema.auditLog)
      .where(gte(schema.auditLog.at, now - 86_400)),
    db.select({ n: count() }).from(schema.operators),
    db.select({ n: count() }).from(schema.moderationCases).where(eq(schema.moderationCases.status, "open")),
    db.select({ n: count() }).from(schema.photos).where(eq(schema.photos.review, "pending")),
    // Mollie and our record disagree, and nobody has dealt with it yet (payments_provider_alert).
    db
      .select({ n: count() })
      .from(P)
      .where(and(isNotNull(P.providerAlertAt), isNull(P.providerAlertDealtAt))),
    // Statements whose tries to reach the Transparency Database ran out (decision 225).
    db.select({ n: count() }).from(schema.dsaSubmissions).where(eq(schema.dsaSubmissions.status, "failed")),
  ]);
  const tiles: Tile[] = [];
  if (mayOpen(role, "payments"))
    tiles.push({
      href: "/admin/payments?alert=1",
      label: "open provider alerts (Mollie and our record disagree)",
      count: alerts?.n ?? 0,
    });
  if (mayOpen(role, "reports"))
    tiles.push({ href: "/admin/reports", label: "open report cases", count: cases?.n ?? 0 });
  if (mayOpen(role, "transparency"))
    tiles.push({
      href: "/admin/transparency#failed",
      label: "statements that failed to reach the Transparency Database",
      count: failed?.n ?? 0,
    });
  if (mayOpen(role, "photos"))
    tiles.push({ href: "/admin/photos", label: "photos waiting for review", count: photos?.n ?? 0 });
  if (mayOpen(role, "audit"))
    tiles.push({ href: "/admin/audit", label: "audit entries in the last 24 hours", count: audit?.n ?? 0 });
  if (mayOpen(role, "operators"))
    tiles.push({ href: "/admin/operators", label: "operator accounts", count: ops?.n ?? 0 });
  return tiles;
}
