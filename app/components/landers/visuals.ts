/**
 * The moving lander visuals: rendered by the server like any component; in the browser each lander
 * loads only its own (the member-chrome pattern of decision 150: a `.server` module is empty in the
 * browser build, and the Suspense boundary around the visual keeps the server's HTML until the chunk
 * has come).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import * as server from "./visuals.server";
import type { VisualProps } from "./parts";

type Visual<P> = ComponentType<P> | LazyExoticComponent<ComponentType<P>>;
const motion = () => import("./MovingVisuals");

export const MapVisual: Visual<VisualProps> =
  server.MapVisual ?? lazy(() => motion().then((m) => ({ default: m.MapVisual })));
export const Player: Visual<VisualProps & { reel?: boolean }> =
  server.Player ?? lazy(() => motion().then((m) => ({ default: m.Player })));
export const Swipe: Visual<VisualProps> = server.Swipe ?? lazy(() => motion().then((m) => ({ default: m.Swipe })));
