/** The members' chrome as the server renders it: the components themselves (see member-chrome.ts). */
export { MemberNav } from "./MemberNav";
export { ActivationReminder } from "../alerts/ActivationReminder";
