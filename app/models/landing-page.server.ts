/**
 * The landing page's loader (routes/pages/_index.tsx re-exports it). It lives here so the route module imports
 * one server module: in the browser build each `.server` import is an empty module, and the five the
 * route imported were five extra chunks of the landing page's JavaScript (docs/architecture/budgets.md §6).
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { pageContext } from "~/lib/page.server";
import { nicheOf } from "./brand.server";
import { getMember } from "./session.server";
import { landingMembers, landingStrip } from "./landing.server";
import { signupForm } from "./tracking.server";

export async function landingPageLoader({ request, context }: LoaderFunctionArgs) {
  const { brand, t, country } = await pageContext(request, context, "landing");
  const niche = nicheOf(brand);
  // Both reads in parallel: one D1 round trip of waiting.
  const [member, members] = await Promise.all([
    getMember(request, context),
    landingMembers(context.env, niche, brand.minAge, country).then((ms) => landingStrip(ms, country)),
  ]);
  // Members have nothing to do on the visitors' landing page.
  if (member) throw redirect("/members");
  // The same first-touch tracking and sign-up rule as every sign-up (docs/product/data.md §3 and docs/product/roles.md §6).
  const form = signupForm(request, brand);
  return {
    niche,
    members: members.members,
    near: members.near,
    signupOpen: form.state === "open",
    signupState: form.state,
    // "Free sign-up" is ticked only where this visitor can sign up (not while sign-up is closed).
    points: form.state === "open" ? ["free", "discreet", "adults"] : ["discreet", "adults"],
    tracking: form.tracking,
    who: form.who,
    minAge: brand.minAge,
    title: t(`${niche}.title`, { brand: brand.name }),
    description: brand.description,
  };
}
