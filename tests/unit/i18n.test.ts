import { readdirSync, readFileSync, existsSync } from "node:fs";
import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { translate } from "../../app/lib/i18n-react";
import { LANGUAGES } from "../../app/lib/constants";
import { lazyMessages, loadMessages, NAMESPACES, resources as serverMessages } from "../../app/lib/messages";

type Tree = { [k: string]: unknown };
const namespaces = readdirSync("locales/en")
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -5));
const load = (lng: string, ns: string): Tree =>
  existsSync(`locales/${lng}/${ns}.json`) ? JSON.parse(readFileSync(`locales/${lng}/${ns}.json`, "utf8")) : {};

function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) for (const [kk, vv] of leaves(v as Tree, key)) out.set(kk, vv);
    else out.set(key, JSON.stringify(v));
  }
  return out;
}
const vars = (s: string) => [...new Set([...s.matchAll(/\{\{\s*-?\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]))].sort();

describe("locale files", () => {
  for (const ns of namespaces) {
    const en = leaves(load("en", ns));
    for (const lng of LANGUAGES.filter((l) => l !== "en")) {
      it(`${lng}/${ns}.json has every key English has, with the same placeholders`, () => {
        const other = leaves(load(lng, ns));
        const missing = [...en.keys()].filter((k) => !other.has(k.replace(/_(one|other)$/, "_other")) && !other.has(k));
        expect(missing, `missing in ${lng}/${ns}`).toEqual([]);
        for (const [k, v] of en) {
          if (!other.has(k)) continue;
          expect(vars(other.get(k)!), `${lng}/${ns}:${k}`).toEqual(vars(v));
        }
      });
      it(`${lng}/${ns}.json is translated, not copied from English`, () => {
        const other = leaves(load(lng, ns));
        const long = [...en].filter(([, v]) => v.length > 24);
        const copied = long.filter(([k, v]) => other.get(k) === v).map(([k]) => k);
        expect(
          copied.length,
          `copied from English in ${lng}/${ns}: ${copied.slice(0, 5).join(", ")}`,
        ).toBeLessThanOrEqual(Math.floor(long.length * 0.1));
      });
    }
  }
});

describe("the React translation reader", () => {
  // One test per language: each compares thousands of keys, and the namespaces keep growing.
  for (const lng of LANGUAGES) {
    it(`gives i18next's output for every key of ${lng}`, async () => {
      const resources = Object.fromEntries(namespaces.map((ns) => [ns, load(lng, ns)]));
      const i18n = createInstance();
      await i18n.init({ lng, resources: { [lng]: resources }, ns: namespaces, interpolation: { escapeValue: false } });
      for (const ns of namespaces) {
        for (const key of leaves(resources[ns]!).keys()) {
          const base = key.replace(/_(zero|one|two|few|many|other)$/, "");
          for (const options of [
            { count: 1, brand: "B", minAge: 18, name: "N", returnObjects: true },
            { count: 5, brand: "B", minAge: 18, company: "C", returnObjects: true },
          ]) {
            const expected = i18n.t(base, { ns, ...options });
            expect(translate({ lng, resources }, [ns], base, options), `${lng}/${ns}:${base}`).toEqual(expected);
          }
        }
      }
    });
  }
  it("interpolates, pluralises and reads other namespaces", () => {
    const store = {
      lng: "en",
      resources: {
        common: { a: { b: "Hi {{name}}" }, n_one: "{{count}} like", n_other: "{{count}} likes" },
        x: { y: "Y" },
      },
    };
    expect(translate(store, ["common"], "a.b", { name: "Eva" })).toBe("Hi Eva");
    expect(translate(store, ["common"], "n", { count: 1 })).toBe("1 like");
    expect(translate(store, ["common"], "n", { count: 3 })).toBe("3 likes");
    expect(translate(store, ["common"], "x:y")).toBe("Y");
    expect(translate(store, ["common"], "missing.key")).toBe("missing.key");
  });
});

describe("the server's messages (decision 171)", () => {
  it("builds a language only when it is first read, and only once", () => {
    let builds = 0;
    const load = () => (builds++, { common: { hi: "Hej" } });
    const record = lazyMessages({ da: load, de: load });
    expect(builds).toBe(0);
    expect(record.da.common).toEqual({ hi: "Hej" });
    expect(record.da.common).toBe(record.da.common);
    expect(builds).toBe(1);
    expect(Object.keys(record)).toEqual(["da", "de"]);
  });

  it("carries every namespace of every language, as the locale files have them", async () => {
    await loadMessages(...LANGUAGES);
    for (const lng of LANGUAGES) {
      expect(Object.keys(serverMessages[lng]).sort()).toEqual(
        [...NAMESPACES].filter((ns) => existsSync(`locales/${lng}/${ns}.json`)),
      );
      for (const ns of Object.keys(serverMessages[lng])) expect(serverMessages[lng][ns]).toEqual(load(lng, ns));
    }
    // Vite transforms the eleven 100 KB modules on their import here: slow on a loaded machine.
  }, 60_000);
});
