import { describe, expect, it } from "vitest";
import { decodeChatReturn, encodeChatReturn, safeChatReturnPath } from "../../app/lib/chat-return";
import { perCreditRange, worthText } from "../../app/lib/credit-worth";

describe("the return path after buying credits from a chat (decision 179)", () => {
  it("passes only this site's chat pages", () => {
    expect(safeChatReturnPath("/chats/Ab_9-x")).toBe("/chats/Ab_9-x");
    expect(safeChatReturnPath("/members/Ab_9-x/chat")).toBe("/members/Ab_9-x/chat");
    for (const bad of [
      "//evil.example",
      "https://evil.example/chats/x",
      "/chats/x/../../logout",
      "/\\evil.example",
      "/chats/x\n",
      "/chats/",
      "/chats/x?y=1",
      "/members/x/chat/..",
      `/chats/${"a".repeat(65)}`,
      null,
      42,
    ]) {
      expect(safeChatReturnPath(bad), String(bad)).toBeNull();
    }
  });

  it("round-trips path and draft, cuts a huge draft to fit a cookie, refuses bad values", () => {
    const v = encodeChatReturn("/chats/abc", "Hi 👋 <b>");
    expect(decodeChatReturn(decodeURIComponent(v))).toEqual({ path: "/chats/abc", draft: "Hi 👋 <b>" });
    const big = encodeChatReturn("/chats/abc", "💘".repeat(1000));
    expect(big.length).toBeLessThanOrEqual(3800);
    const back = decodeChatReturn(decodeURIComponent(big))!;
    expect(back.path).toBe("/chats/abc");
    expect(back.draft.length).toBeGreaterThan(0);
    expect(decodeChatReturn(JSON.stringify(["//evil", "x"]))).toBeNull();
    expect(decodeChatReturn("not json")).toBeNull();
    expect(decodeChatReturn(JSON.stringify(["/chats/a", 1]))).toBeNull();
    expect(decodeChatReturn(null)).toBeNull();
  });
});

describe("what credits are worth in money", () => {
  const pkgs = [
    { credits: 25, price_cents: 995 },
    { credits: 400, price_cents: 7995 },
  ];
  it("gives a range from the dearest and cheapest credit", () => {
    const range = perCreditRange(pkgs)!;
    const euro = (c: number) => `€${(c / 100).toFixed(2)}`;
    expect(worthText(1, range, euro)).toBe("€0.20–€0.40");
    expect(worthText(2, range, euro)).toBe("€0.40–€0.80");
    expect(worthText(1, perCreditRange([pkgs[0]!]), euro)).toBe("€0.40");
    expect(worthText(0, range, euro)).toBeNull();
    expect(worthText(1, perCreditRange([]), euro)).toBeNull();
  });
});
