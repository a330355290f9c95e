/**
 * The Worker the worker tests run (vitest.worker.config.ts `main`): production's entry, whose built
 * ChatRoom the tests reach through a subclass holding the hooks only tests need (decision 230). The
 * production bundle never imports this file, so its ChatRoom has none of them (checked in
 * tests/worker/production/production.test.ts).
 */
import worker, { ChatRoom, EchoRoom, MemberHub } from "../../app/entry.worker";

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

export { ChatRoomUnderTest as ChatRoom, EchoRoom, MemberHub };
export default worker;
