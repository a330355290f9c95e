import { describe, expect, it } from "vitest";
import { navSection } from "../../app/lib/nav";

describe("navSection (which member nav item a page highlights)", () => {
  it("puts a chat opened from a profile under Messages, not Search (decision 011)", () => {
    expect(navSection("/members/abc123/chat")).toBe("messages");
    expect(navSection("/chats")).toBe("messages");
    expect(navSection("/chats/xyz")).toBe("messages");
  });
  it("keeps profiles and the search under Search", () => {
    expect(navSection("/members")).toBe("search");
    expect(navSection("/members/abc123")).toBe("search");
    expect(navSection("/members/abc123/landing")).toBe("search");
  });
  it("knows likes and credits, and nothing else", () => {
    expect(navSection("/likes")).toBe("likes");
    expect(navSection("/credits")).toBe("credits");
    expect(navSection("/settings")).toBeNull();
    expect(navSection("/chatsomething")).toBeNull();
    expect(navSection("/membership")).toBeNull();
  });
});
