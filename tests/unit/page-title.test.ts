import { describe, expect, it } from "vitest";
import { pageTitle } from "~/lib/page-title";

describe("pageTitle", () => {
  const brand = { brandName: "Amora", indexTitle: "Amora – flirt, chat and date" };
  it("adds the brand's name to a page's title", () => {
    expect(pageTitle({ ...brand, title: "Sign up free" })).toBe("Sign up free – Amora");
  });
  it("keeps a title that names the brand, and uses the index title where a page has none", () => {
    expect(pageTitle({ ...brand, title: "Amora – meet singles" })).toBe("Amora – meet singles");
    expect(pageTitle({ ...brand, title: " " })).toBe(brand.indexTitle);
  });
  it("puts the unread count in front", () => {
    expect(pageTitle({ ...brand, title: "Likes", unread: 3 })).toBe("(3) Likes – Amora");
  });
});
