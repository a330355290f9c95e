/**
 * The Worker the worker tests run (vitest.worker.config.ts `main`): production's entry, whose built
 * ChatRoom and MemberHub the tests reach through subclasses holding the hooks only tests need
 * (decisions 230 and 236). The
 * production bundle never imports this file, so its ChatRoom has none of them (checked in
 * tests/worker/production/production.test.ts).
 */
import worker, { ChatRoom, EchoRoom, MemberHub } from "../../app/entry.worker";
import type { Env } from "../../app/lib/env";
import { Wallet } from "../../app/wallet/wallet";

export class ChatRoomUnderTest extends ChatRoom {
  private failNext = false;

  /** The next send fails inside its transaction, after its charge: nothing is charged or stored. */
  async failNextCommit(): Promise<void> {
    this.failNext = true;
  }

  protected override overviewOfSend(...args: Parameters<InstanceType<typeof ChatRoom>["overviewOfSend"]>) {
    if (this.failNext) {
      this.failNext = false;
      throw new Error("injected commit failure");
    }
    return super.overviewOfSend(...args);
  }

  /** Resolves once the work started after earlier answers (overview writes, notifications, mail) is done. */
  async settled(): Promise<void> {
    while (this.background.size > 0 || this.flushing) {
      await Promise.allSettled([...this.background, this.flushing]);
    }
  }

  /** How many sockets are open, per member. */
  async sockets(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const ws of this.ctx.getWebSockets()) {
      const who = ws.deserializeAttachment() as { memberId?: string } | null;
      if (who?.memberId) out[who.memberId] = (out[who.memberId] ?? 0) + 1;
    }
    return out;
  }
}

/** The names a production ChatRoom must not have (every member the subclass adds). */
export const CHAT_ROOM_TEST_HOOKS = [
  ...Object.getOwnPropertyNames(ChatRoomUnderTest.prototype).filter(
    (n) => n !== "constructor" && n !== "overviewOfSend",
  ),
  "failNext",
];

/** A wallet whose next calls can be made to fail as if its object were unreachable, to prove the retries. */
class WalletUnderTest extends Wallet {
  failures = 0;

  protected override open(...args: Parameters<Wallet["open"]>) {
    if (this.failures > 0) {
      this.failures -= 1;
      return Promise.reject(new Error("wallet unreachable (injected)"));
    }
    return super.open(...args);
  }
}

export class MemberHubUnderTest extends MemberHub {
  protected override walletOf(ctx: DurableObjectState, env: Env): Wallet {
    return new WalletUnderTest(ctx, env);
  }

  /** The wallet's next `count` calls fail as if the object were unreachable. */
  async walletFailNext(count: number): Promise<void> {
    (this.wallet as WalletUnderTest).failures = count;
  }
}

/** The names a production MemberHub must not have (every member the subclass adds). */
export const MEMBER_HUB_TEST_HOOKS = Object.getOwnPropertyNames(MemberHubUnderTest.prototype).filter(
  (n) => n !== "constructor" && n !== "walletOf",
);

/** The member's hub as the worker tests run it (with its test hooks). */
export const hubUnderTest = (env: Pick<Env, "MEMBER_HUB">, userId: string) =>
  env.MEMBER_HUB.get(env.MEMBER_HUB.idFromName(userId)) as unknown as DurableObjectStub<MemberHubUnderTest>;

/**
 * The client a test file's requests come from. The files share a runtime (vitest.worker.config.ts) and
 * the rate limiters count per client for a minute, so each file is a client of its own
 * (setup-shared-runtime.ts sets its address); a request that names its own `CF-Connecting-IP` keeps it.
 */
export const testClient = { ip: "" };

export { ChatRoomUnderTest as ChatRoom, EchoRoom, MemberHubUnderTest as MemberHub };
export default {
  ...worker,
  fetch(request: Request, env: Env, ctx: ExecutionContext) {
    if (!testClient.ip || request.headers.has("CF-Connecting-IP")) return worker.fetch(request, env, ctx);
    const headers = new Headers(request.headers);
    headers.set("CF-Connecting-IP", testClient.ip);
    return worker.fetch(new Request(request, { headers }) as typeof request, env, ctx);
  },
};
