import { describe, expect, it } from "vitest";
import { countBadge, creditBadge } from "../../app/lib/badges";

describe("top bar badges", () => {
  it("caps the unread badge at 99+ and hides it at 0", () => {
    expect(countBadge(0)).toBeNull();
    expect(countBadge(7)).toBe("7");
    expect(countBadge(99)).toBe("99");
    expect(countBadge(100)).toBe("99+");
  });
  it("shows the balance always: quiet above 10, warning at 10 or fewer, danger at 0", () => {
    expect(creditBadge(11)).toEqual({ text: "11", tone: "muted" });
    expect(creditBadge(1250)).toEqual({ text: "1250", tone: "muted" });
    expect(creditBadge(10)).toEqual({ text: "10", tone: "warning" });
    expect(creditBadge(1)).toEqual({ text: "1", tone: "warning" });
    expect(creditBadge(0)).toEqual({ text: "0", tone: "danger" });
  });
});
