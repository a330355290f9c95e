/** The moving lander visuals as the server renders them: the components themselves (see visuals.ts). */
export { MapVisual, Player, Swipe } from "./MovingVisuals";
