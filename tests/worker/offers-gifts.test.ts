/** Gifts ask before spending gift_credits; too few credits offers the checkout with the active discount. */
import { describe, expect, it } from "vitest";
import { createMember, get, post } from "./fixtures";
import { cid, cookieOf, ledgerCount, pair, roomCount, PRICES, walletCredits } from "./chat-support";

const balance = walletCredits;
const gifts = (conversationId: string) => roomCount(conversationId, "kind = 'gift'");

describe("sending a gift", () => {
  it("picking a gift only asks (nothing spent); yes sends it for gift_credits, once per form", async () => {
    const { alice, conversationId } = await pair({ credits: 100 });
    const cookie = await cookieOf(alice.id);
    const room = await (await get(`/chats/${conversationId}`, { cookie })).text();
    expect(room).toContain('name="pickGift" value="rose"');
    expect(room).not.toContain('name="giftId"');

    const asked = await post(`/chats/${conversationId}`, { clientId: cid(), pickGift: "rose" }, { cookie });
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain(`Send 🌹 Rose for ${PRICES.gift} credits?`);
    expect(html).toContain('name="giftId" value="rose"');
    expect(await balance(alice.id)).toBe(100);
    expect(await gifts(conversationId)).toBe(0);

    const clientId = cid();
    expect((await post(`/chats/${conversationId}`, { clientId, giftId: "rose" }, { cookie })).status).toBe(302);
    expect((await post(`/chats/${conversationId}`, { clientId, giftId: "rose" }, { cookie })).status).toBe(302);
    expect(await gifts(conversationId)).toBe(1);
    expect(await balance(alice.id)).toBe(100 - PRICES.gift);
    expect(await ledgerCount(alice.id, ["gift"])).toBe(1);
  });

  it("an unknown gift is neither asked about nor sent", async () => {
    const { alice, conversationId } = await pair({ credits: 100 });
    const cookie = await cookieOf(alice.id);
    const asked = await post(`/chats/${conversationId}`, { clientId: cid(), pickGift: "<script>" }, { cookie });
    expect(await asked.text()).not.toContain(`for ${PRICES.gift} credits?`);
    expect((await post(`/chats/${conversationId}`, { clientId: cid(), giftId: "yacht" }, { cookie })).status).toBe(400);
    expect(await balance(alice.id)).toBe(100);
  });

  it("too few credits: nothing sent, the gift's message and the checkout with the member's active discount", async () => {
    // A member minutes old (time bonus) with too few credits, in a conversation started by the other side.
    const { alice: them, bob: me, conversationId } = await pair({}, { paidUser: false, credits: PRICES.gift - 1 });
    void them;
    const res = await post(
      `/chats/${conversationId}`,
      { clientId: cid(), giftId: "kiss" },
      { cookie: await cookieOf(me.id) },
    );
    expect(res.status).toBe(402);
    const html = await res.text();
    expect(html).toContain("You do not have enough credits to send this gift.");
    expect(html).toContain("Buy credits with 25% off");
    // The buy button posts the chat's form to the shop, so the purchase returns to this chat (decision 179).
    expect(html).toMatch(/formaction="\/credits\?index"/i);
    expect(await gifts(conversationId)).toBe(0);
    expect(await balance(me.id)).toBe(PRICES.gift - 1);
  });

  it("a first gift from /members/{id}/chat asks first too; a paying member's checkout has no discount", async () => {
    const me = await createMember({ paidUser: true, credits: 1 });
    const other = await createMember();
    const cookie = await cookieOf(me.id);
    const asked = await (
      await post(`/members/${other.id}/chat`, { clientId: cid(), pickGift: "teddy" }, { cookie })
    ).text();
    expect(asked).toContain(`Send 🧸 Teddy bear for ${PRICES.gift} credits?`);
    const res = await post(`/members/${other.id}/chat`, { clientId: cid(), giftId: "teddy" }, { cookie });
    expect(res.status).toBe(402);
    const html = await res.text();
    expect(html).toContain("You do not have enough credits to send this gift.");
    expect(html).not.toContain("% off");
    expect(await balance(me.id)).toBe(1);
  });
});

describe("a new free member's sign-up credits", () => {
  it("5 credits start the 2 conversations a free member may; then the premium prompt, and at 0 the checkout with the time bonus", async () => {
    const me = await createMember({ credits: 5 }); // the seed brand's signup_credits, minutes old: time bonus running
    const cookie = await cookieOf(me.id);
    const rooms: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await post(
        `/members/${(await createMember()).id}/chat`,
        { clientId: cid(), body: `hi ${i}` },
        { cookie },
      );
      expect(res.status).toBe(302);
      rooms.push(res.headers.get("Location")!);
    }
    const third = await post(
      `/members/${(await createMember()).id}/chat`,
      { clientId: cid(), body: "hi 3" },
      { cookie },
    );
    expect(third.status).toBe(403);
    expect(await third.text()).toContain('href="/premium"');
    // 5 − 2 = 3 credits left at PRICES.message each: write on until they run out.
    let sent = 0;
    for (;;) {
      const res = await post(rooms[0]!, { clientId: cid(), body: `more ${sent}` }, { cookie });
      if (res.status !== 302) {
        expect(res.status).toBe(402);
        const html = await res.text();
        expect(html).toContain("You do not have enough credits to send this message");
        expect(html).toContain("Buy credits with 25% off");
        break;
      }
      sent += 1;
    }
    expect(sent).toBe(Math.floor(3 / PRICES.message));
    expect(await balance(me.id)).toBe(3 - sent * PRICES.message);
  });
});
