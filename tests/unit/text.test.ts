import { describe, expect, it } from "vitest";
import { normaliseText } from "~/lib/text";
import { isRealDate } from "~/lib/dates";

describe("normaliseText (decision 082)", () => {
  it("composes to NFC and trims", () => {
    expect(normaliseText("  Zoe\u0308  ")).toBe("Zo\u00eb");
  });
  it("removes bidi overrides, zero-width and control characters", () => {
    expect(normaliseText("Eve\u202egnp.exe")).toBe("Evegnp.exe");
    expect(normaliseText("a\u200bb\u2066c\u0007d\ufeff")).toBe("abcd");
  });
  it("turns line breaks into spaces on one line, keeps them (as \\n) in paragraphs", () => {
    expect(normaliseText("Ann\r\nSubject: hi")).toBe("Ann Subject: hi");
    expect(normaliseText("one\r\ntwo\rthree", { multiline: true })).toBe("one\ntwo\nthree");
  });
  it("makes a value with nothing visible blank", () => {
    for (const v of ["\u200b\u200b", "\u200d\u200c", "\u3164\u3164", "\u202e ", "\u00a0\u3000", "\u2800", "\ufe0f"]) {
      expect(normaliseText(v), JSON.stringify(v)).toBe("");
    }
  });
  it("keeps emoji sequences with their joiners and ordinary scripts", () => {
    expect(normaliseText("hi \u{1f468}\u200d\u{1f469}\u200d\u{1f467} \u2764\ufe0f")).toBe(
      "hi \u{1f468}\u200d\u{1f469}\u200d\u{1f467} \u2764\ufe0f",
    );
    expect(normaliseText("Łódź Ærø Søren مرحبا")).toBe("Łódź Ærø Søren مرحبا");
  });
});

describe("isRealDate: one date rule", () => {
  it("accepts real calendar dates only", () => {
    expect(isRealDate("2000-02-29")).toBe(true);
    for (const d of [
      "2000-02-31",
      "1999-02-29",
      "1990-04-31",
      "1990-00-10",
      "1990-13-01",
      "+01990-01-01",
      "1990-1-1",
      "",
    ]) {
      expect(isRealDate(d), d).toBe(false);
    }
  });
});
