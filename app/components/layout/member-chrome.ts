/**
 * The parts of the chrome only members see, kept out of the landing page's JavaScript (DESIGN
 * section 6, the 100 KB budget). The server renders them like any component (in the HTML, also
 * without JavaScript); in the browser each is its own chunk, loaded for members only: its Suspense
 * boundary keeps the server's HTML until the chunk has come, then hydrates it.
 * (A `.server` module is an empty module in the browser build, so `server.X` is undefined there.)
 */
import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import * as server from "./member-chrome.server";

function split<P>(ssr: ComponentType<P> | undefined, load: () => Promise<ComponentType<P>>): ComponentType<P> | LazyExoticComponent<ComponentType<P>> {
  return ssr ?? lazy(() => load().then((component) => ({ default: component })));
}

export const MemberNav = split(server.MemberNav, () => import("./MemberNav").then((m) => m.MemberNav));
export const ActivationReminder = split(server.ActivationReminder, () => import("../alerts/ActivationReminder").then((m) => m.ActivationReminder));
