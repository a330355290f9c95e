/**
 * STUB of the development issuer (issue 27; outside production only): the real one (a test root and
 * proof-of-age mdocs signed under it) is built on branch a27a and replaces this file at merge.
 * Its root is random bytes kept in app_keys, made on first use. Decision 185.
 */
import { eq } from "drizzle-orm";
import { getDb, schema } from "../../../db/client";
import { stubRootId } from "./mdoc.server";

export type WalletAnswer = "valid" | "under_18" | "expired" | "wrong_issuer";
export interface TestIssuer {
  rootDer: Uint8Array;
}

const KEY = "age_test_root";

export async function loadTestIssuer(d1: D1Database): Promise<TestIssuer> {
  const db = getDb(d1);
  const stored = () =>
    db.select({ value: schema.appKeys.value }).from(schema.appKeys).where(eq(schema.appKeys.name, KEY)).get();
  if (!(await stored())) {
    const fresh = stubRootId(crypto.getRandomValues(new Uint8Array(32)));
    await db.insert(schema.appKeys).values({ name: KEY, value: fresh }).onConflictDoNothing();
  }
  const value = (await stored())!.value;
  return { rootDer: Uint8Array.from(atob(value), (c) => c.charCodeAt(0)) };
}

export async function presentTestAttestation(
  issuer: TestIssuer,
  answer: WalletAnswer,
  req: { nonce: string; clientId: string; responseUri: string; now: Date },
): Promise<string> {
  const root = answer === "wrong_issuer" ? stubRootId(new Uint8Array(32)) : stubRootId(issuer.rootDer);
  const json = JSON.stringify({ answer, nonce: req.nonce, clientId: req.clientId, responseUri: req.responseUri, root });
  return btoa(String.fromCharCode(...new TextEncoder().encode(json)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}
