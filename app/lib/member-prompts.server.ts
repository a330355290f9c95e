/**
 * The root loader's list of member prompts (decision 179). A `.server` module so that root.tsx's
 * browser build does not pull the rule and its imports into the landing page's JavaScript.
 */
export { memberPrompts } from "./member-alerts";
