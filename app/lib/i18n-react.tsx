/**
 * React side of translations: a ~1 KB reader of the same i18next JSON files (nested keys, "ns:key",
 * {{interpolation}}, _one/_other plurals via Intl.PluralRules, returnObjects). i18next itself stays on
 * the server (loaders, mails); on the client it would cost ~19 KB gzip of the 100 KB landing budget.
 * A unit test checks this reader gives i18next's output for every key of every locale.
 */
import { createContext, useContext, useEffect, useState } from "react";
import type { Copy } from "./i18n";

type Tree = { [key: string]: unknown };
export interface I18nStore {
  lng: string;
  /** namespace → its tree, for this language */
  resources: Record<string, Tree>;
  /** The brand's copy (decision 212): a key's `<key>_<copy>` variant is read first, where there is one. */
  copy?: Copy;
  /** Client only: loads a namespace not yet present (the render suspends until it is there). */
  load?: (ns: string) => Promise<void>;
}
export type TOptions = {
  [key: string]: unknown;
  count?: number;
  returnObjects?: boolean;
  ns?: string;
  defaultValue?: string;
};
export type TFunction = (key: string, options?: TOptions) => string;

const I18nContext = createContext<I18nStore>({ lng: "en", resources: {} });
export const I18nProvider = I18nContext.Provider;

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralOf(lng: string, count: number) {
  let rules = pluralRules.get(lng);
  if (!rules) pluralRules.set(lng, (rules = new Intl.PluralRules(lng)));
  return rules.select(count);
}

function lookup(tree: Tree | undefined, path: string): unknown {
  let node: unknown = tree;
  for (const part of path.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Tree)[part];
  }
  return node;
}

function interpolate(text: string, options: TOptions | undefined) {
  if (!options) return text;
  return text.replace(/\{\{\s*-?\s*([\w.]+)\s*\}\}/g, (whole, name: string) => {
    const value = lookup(options as Tree, name);
    return value === undefined ? whole : String(value);
  });
}

function interpolateDeep(value: unknown, options: TOptions | undefined): unknown {
  if (typeof value === "string") return interpolate(value, options);
  if (Array.isArray(value)) return value.map((v) => interpolateDeep(v, options));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateDeep(v, options)]));
  }
  return value;
}

export function translate(store: I18nStore, namespaces: string[], key: string, options?: TOptions): string {
  let ns = options?.ns ?? namespaces[0] ?? "common";
  let path = key;
  const colon = key.indexOf(":");
  if (colon > 0) {
    ns = key.slice(0, colon);
    path = key.slice(colon + 1);
  }
  const tree = store.resources[ns];
  let value: unknown;
  // As i18next's context: the brand's variant first, then the key itself; each with its plural forms.
  for (const p of store.copy ? [`${path}_${store.copy}`, path] : [path]) {
    if (typeof options?.count === "number") {
      value = lookup(tree, `${p}_${pluralOf(store.lng, options.count)}`) ?? lookup(tree, `${p}_other`);
    }
    value ??= lookup(tree, p);
    if (value !== undefined) break;
  }
  if (value === undefined) return options?.defaultValue ?? key;
  if (typeof value !== "string") return options?.returnObjects ? (interpolateDeep(value, options) as string) : key;
  return interpolate(value, options);
}

/**
 * Same shape as react-i18next's hook: `const { t, i18n, ready } = useTranslation("ns")`. A namespace not
 * loaded yet suspends the render (inside a navigation's transition the previous page stays until the
 * strings arrive); with `{ useSuspense: false }` it renders at once with `ready` false, then again.
 */
export function useTranslation(ns: string | string[] = "common", options: { useSuspense?: boolean } = {}) {
  const store = useContext(I18nContext);
  const namespaces = Array.isArray(ns) ? ns : [ns];
  const missing = store.load ? namespaces.filter((n) => !store.resources[n]) : [];
  const [, rerender] = useState(0);
  const wait = missing.length > 0 && options.useSuspense === false;
  useEffect(() => {
    if (wait) Promise.all(missing.map((n) => store.load!(n))).then(() => rerender((x) => x + 1));
  }, [wait, missing.join()]); // eslint-disable-line react-hooks/exhaustive-deps
  if (missing.length > 0 && !wait) throw Promise.all(missing.map((n) => store.load!(n)));
  const t: TFunction = (key, opts) => translate(store, namespaces, key, opts);
  return { t, i18n: { language: store.lng }, ready: missing.length === 0 };
}
