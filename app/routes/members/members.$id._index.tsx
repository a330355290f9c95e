/** The profile view, /members/{id} (also served at /likes/m/{id}). */
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { pageContext } from "~/lib/page.server";
import { getMember, requireMember } from "~/models/session.server";
import { loadProfilePage } from "~/models/profiles.server";
import { like, unlike } from "~/models/likes.server";
import { block, unblock } from "~/models/blocks.server";
import { BlockedNotice, ProfileView } from "~/components/members/ProfileView";
import styles from "~/styles/members.css";
import { readForm } from "~/lib/body.server";
import { WelcomeOffer } from "~/components/offers/WelcomeOffer";
import { pricesFor } from "~/models/credits.server";
import { discountCodeFields } from "~/models/discounts.server";
import { unlockPhoto } from "~/models/offers.server";

export const handle = { i18n: ["common", "members", "offers"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [{ brand, t, lng }, member] = await Promise.all([
    pageContext(request, context, "members"),
    getMember(request, context),
  ]);
  const viewer = member && { id: member.id, paidUser: member.paidUser };
  const page = await loadProfilePage(context.env.DB, params.id ?? "", viewer, brand.visibleProfileFields, lng);
  if (page.access === "not_found") throw new Response(t("profile.notFound"), { status: 404 });
  if (page.access === "blocked")
    return data({ blocked: true as const, name: page.name, title: t("block.noAccess") }, { status: 403 });
  return {
    blocked: false as const,
    title: page.profile.name,
    ...page,
    loggedIn: !!member,
    paidUser: !!member?.paidUser,
    // What unlocking one private photo costs this member (docs/product/limits.md §9, photo_credits), through the one price owner.
    photoCredits: pricesFor(brand, null).photo,
    fictional: { icon: brand.fictionalIcon, singular: brand.fictionalSingular, warning: brand.fictionalWarning },
  };
}

const ActionInput = lazy(() =>
  z.discriminatedUnion("intent", [
    z.object({ intent: z.enum(["like", "unlike", "block", "unblock"]) }),
    z.object({ intent: z.literal("unlock"), photoId: z.string().regex(/^[\w-]{1,64}$/) }),
  ]),
);

export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const targetId = params.id ?? "";
  const parsed = ActionInput().safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) {
    const { t } = await pageContext(request, context, "members");
    return data({ error: t("errors.invalid") }, { status: 400 });
  }
  const d1 = context.env.DB;
  const input = parsed.data;
  if (input.intent === "like") await like(context, member.id, targetId, "profile");
  else if (input.intent === "unlike") await unlike(d1, member.id, targetId);
  else if (input.intent === "block") await block(context.env, member.id, targetId);
  else if (input.intent === "unblock") await unblock(context.env, member.id, targetId);
  else if (input.intent === "unlock") {
    const { brand } = await pageContext(request, context, "members");
    const result = await unlockPhoto(context.env, member, input.photoId, pricesFor(brand, null).photo);
    if (result === "not_found") throw new Response("Not found", { status: 404 });
    // Too few credits: offer the checkout, with the active discount when there is one.
    if (result === "credits")
      return data(
        { unlock: "credits" as const, discount: discountCodeFields(member, brand)?.value_percentage ?? null },
        { status: 402 },
      );
  }
  return redirect(new URL(request.url).pathname);
}

export default function MemberProfile() {
  const data = useLoaderData<typeof loader>();
  if (data.blocked) return <BlockedNotice name={data.name} />;
  return (
    <>
      <WelcomeOffer />
      <ProfileView data={data} />
    </>
  );
}
