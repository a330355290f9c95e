import { describe, expect, it } from "vitest";
import { parseXml } from "~/lib/age/trusted-list.server";

describe("the trusted list's XML reader", () => {
  it("knows XML's five named entities and no name of Object's prototype", () => {
    expect(() => parseXml("<a>&lt;&amp;&gt;</a>")).not.toThrow();
    expect(() => parseXml("<a>&constructor;</a>")).toThrow(/entity/);
  });
});
