/** Screenshots at phone and desktop width, and an operator's console page (logged in by cookie, JavaScript off). */
export { shot } from "./shots";
export { operatorPage } from "./fixtures";
