import { describe, expect, it } from "vitest";
import { get } from "./fixtures";

describe("brand resolution", () => {
  it("serves each brand on its own hostname", async () => {
    const html = await (await get("/", { host: "de.localhost" })).text();
    expect(html).toContain("Herzklang");
    expect(html).toContain('lang="de"');
  });
});
