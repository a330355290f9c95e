/** My photos: upload (a plain file form), set main, mark private or public, delete. */
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { safeRedirect } from "~/lib/request.server";
import { requireMember } from "~/models/session.server";
import { MAX_UPLOAD_BYTES } from "~/models/profile-options";
import {
  deletePhoto,
  listOwnPhotos,
  photoLimit,
  setMainPhoto,
  setPhotoPrivate,
  uploadPhoto,
} from "~/models/photos.server";
import styles from "~/styles/members.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "members"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { t, brand } = await pageContext(request, context, "members");
  const photos = await listOwnPhotos(context.env.DB, member.id);
  return {
    title: t("photos.title"),
    photos,
    limit: photoLimit(member.paidUser),
    paidUser: member.paidUser,
    // Decision 175: whether others already see a photo that waits for review.
    review: brand.photoReview,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { t } = await pageContext(request, context, "members");
  const fail = (error: string, status = 400) =>
    data(
      { error: t(`photos.errors.${error}`, { limit: photoLimit(member.paidUser), mb: MAX_UPLOAD_BYTES >> 20 }) },
      { status },
    );
  // Refuse an oversize body from its length, before reading it.
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_UPLOAD_BYTES + 64 * 1024) return fail("too_large", 413);
  const form = await readForm(request, context, { maxBytes: MAX_UPLOAD_BYTES + 64 * 1024 });
  const intent = String(form.get("intent") ?? "");
  const photoId = String(form.get("photoId") ?? "");
  const env = context.env;
  if (intent === "upload") {
    const file = form.get("photo");
    if (!(file instanceof File) || file.size === 0) return fail("no_file");
    const result = await uploadPhoto(env, member, new Uint8Array(await file.arrayBuffer()));
    if (!result.ok) return fail(result.error, result.error === "too_large" ? 413 : 400);
  } else if (intent === "main") await setMainPhoto(env.DB, member.id, photoId);
  else if (intent === "private" || intent === "public")
    await setPhotoPrivate(env.DB, member.id, photoId, intent === "private");
  else if (intent === "delete") await deletePhoto(env, member.id, photoId);
  else return fail("no_file");
  // The after-sign-up photo step posts here too and goes on to its next step.
  return redirect(safeRedirect(form.get("redirectTo"), "/profile/photos"));
}

export default function MyPhotos() {
  const { photos, limit, paidUser, review } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t } = useTranslation("members");
  const full = photos.length >= limit;
  return (
    <div className="container members-page">
      <p>
        <Link to="/profile">{t("profile.back")}</Link>
      </p>
      <h1>{t("photos.title")}</h1>
      <p>{t("photos.count", { count: photos.length, limit })}</p>
      {data?.error ? (
        <p className="alert alert-danger" role="alert">
          {data.error}
        </p>
      ) : null}
      {full ? (
        <p className="alert alert-info">
          {t("photos.errors.limit", { limit })} {paidUser ? null : <Link to="/premium">{t("photos.getPremium")}</Link>}
        </p>
      ) : (
        <Form method="post" encType="multipart/form-data" className="card upload-form">
          <input type="hidden" name="intent" value="upload" />
          <label className="field">
            <span>{t("photos.choose")}</span>
            <input type="file" name="photo" accept="image/jpeg,image/png,image/webp" required />
          </label>
          <p className="hint">{t("photos.hint", { mb: MAX_UPLOAD_BYTES >> 20 })}</p>
          <button type="submit" className="btn btn-primary">
            {t("photos.upload")}
          </button>
        </Form>
      )}
      <ul className="photo-grid own-photos">
        {photos.map((p) => (
          <li key={p.id} className="card">
            <a className="photo-tile" href={`/photos/${p.id}/full`}>
              <img src={`/photos/${p.id}/thumb`} alt={t("photos.mine")} loading="lazy" />
            </a>
            <p className="photo-flags">
              {p.isMain ? <span className="badge">{t("photos.main")}</span> : null}
              {p.isPrivate ? <span className="badge">{t("photos.private")}</span> : null}
              {p.pending ? <span className="badge badge-warning">{t("photos.pending")}</span> : null}
            </p>
            {p.pending ? (
              <p className="hint photo-pending">
                {t(review === "after" ? "photos.pendingAfter" : "photos.pendingBefore")}
              </p>
            ) : null}
            <Form method="post" className="photo-actions">
              <input type="hidden" name="photoId" value={p.id} />
              {!p.isMain ? (
                <button className="btn btn-sm" name="intent" value="main">
                  {t("photos.setMain")}
                </button>
              ) : null}
              <button className="btn btn-sm" name="intent" value={p.isPrivate ? "public" : "private"}>
                {p.isPrivate ? t("photos.makePublic") : t("photos.makePrivate")}
              </button>
              <button className="btn btn-sm btn-danger" name="intent" value="delete">
                {t("photos.delete")}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </div>
  );
}
