/**
 * What app/entry.worker.ts needs besides Remix, re-exported by app/entry.server.tsx so that it reaches
 * the Worker through the Remix server build (`build.entry.module`). wrangler bundles the entry and
 * the server build: had the entry imported these itself, the Worker would carry two copies of the
 * models, the translations and the libraries (decision 195, docs/architecture/budgets.md §6).
 */
export { createRequestHandler } from "./lib/lazy-routes.server";
export { ChatRoom } from "./chat/room";
export { EchoRoom } from "./chat/echo";
export { MemberHub } from "./chat/hub";
export { isSameOrigin, newNonce, withSecurityHeaders } from "./lib/security.server";
export { handleChatSocket, handleMemberSocket } from "./chat/socket.server";
export { runScheduled } from "./lib/scheduled.server";
export { HUB_PATH } from "./chat/protocol";
export { logError, requestIdOf } from "./lib/log.server";
export { handleNotifyBatch } from "./models/notify.server";
export { firstTouchCookie } from "./models/tracking.server";
export { recheck } from "./models/payments/checks.server";
export { startChatMigration } from "./models/chat.server";
export { roomStub } from "./chat/stubs";
export { startWalletMigration } from "./wallet/migrate.server";
export { handleMovesBatch } from "./models/moves.server";
export { handleDsaBatch } from "./models/dsa-submit.server";
export { isDeployed } from "./lib/env";
export { consoleHostRefused } from "./lib/admin-path";
export { refuseUnconfigured } from "./lib/config.server";
export { refuseBrandWithoutAccount } from "./models/brand.server";
export { reportError, withSentryWhenSet } from "./lib/sentry.server";
export { traceRoundTrips, roundTripsTiming } from "./lib/trace.server";
export { withD1Session } from "./lib/d1-session.server";
