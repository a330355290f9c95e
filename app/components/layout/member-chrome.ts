/**
 * The parts of the chrome only members see, kept out of the landing page's JavaScript
 * (docs/architecture/budgets.md §6, the 100 KB budget). The server renders them like any component (in the HTML, also
 * without JavaScript); in the browser each is its own chunk, loaded for members only.
 * (A `.server` module is an empty module in the browser build, so `server.X` is undefined there.)
 */
import { createElement, lazy, Suspense, type ComponentType } from "react";
import * as server from "./member-chrome.server";

const preloads: Array<() => Promise<unknown>> = [];

/**
 * On the server the component itself; in the browser the component once its chunk is there, else (a
 * member who logged in without a reload) the lazy one in its own Suspense boundary. The server's HTML
 * holds no boundary: React hydrates a boundary later than the page, and an update reaching it before
 * fails (React error 421), so a member's page is hydrated only after preloadMemberChrome.
 */
function split<P extends object>(
  ssr: ComponentType<P> | undefined,
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  if (ssr) return ssr;
  let loaded: ComponentType<P> | undefined;
  const once = () => (loaded ? Promise.resolve(loaded) : load().then((component) => (loaded = component)));
  preloads.push(once);
  const Lazy = lazy(() => once().then((component) => ({ default: component })));
  return function MemberChrome(props: P) {
    return loaded
      ? createElement(loaded, props)
      : createElement(Suspense, { fallback: null }, createElement(Lazy as unknown as ComponentType<P>, props));
  };
}

export const MemberNav = split(server.MemberNav, () => import("./MemberNav").then((m) => m.MemberNav));
export const ActivationReminder = split(server.ActivationReminder, () =>
  import("../alerts/ActivationReminder").then((m) => m.ActivationReminder),
);

/** entry.client awaits this before hydrating a member's page (see split). */
export const preloadMemberChrome = () => Promise.all(preloads.map((preload) => preload()));
