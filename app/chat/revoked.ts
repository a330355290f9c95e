/**
 * Both Durable Objects (ChatRoom, MemberHub) keep, in each socket's attachment, the hash of the
 * session it was opened with. When sessions are revoked the objects close the sockets whose session
 * no longer exists (decision 083).
 */
import { liveSessionHashes } from "../models/session.server";
import { REVOKED_CLOSE } from "./protocol";

export type SocketSession = { sessionHash?: string };

/** Closes (code 4401) every socket among `sockets` whose session is gone; answers how many. */
export async function closeSocketsOfRevokedSessions(db: D1Database, sockets: WebSocket[]): Promise<number> {
  const hashOf = (ws: WebSocket) => (ws.deserializeAttachment() as SocketSession | null)?.sessionHash;
  const live = await liveSessionHashes(db, [...new Set(sockets.map(hashOf).filter((h): h is string => !!h))]);
  let closed = 0;
  for (const ws of sockets) {
    const hash = hashOf(ws);
    if (hash && live.has(hash)) continue;
    closeRevoked(ws);
    closed += 1;
  }
  return closed;
}

export function closeRevoked(ws: WebSocket) {
  try {
    ws.close(REVOKED_CLOSE, "session_revoked");
  } catch {
    // Already closed.
  }
}
