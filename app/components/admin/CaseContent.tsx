/**
 * What a case or an appeal is about, shown to the moderator who decides it: the reported photo, the
 * profile's photos, the reported message with the messages around it. Photos of a case about a minor
 * or non-consensual imagery come blurred until the moderator asks to see them (an audited POST).
 */
import { Facts } from "./AdminTable";
import { when } from "./labels";

export type ShownPhoto = { id: string; isPrivate: boolean; review: string; held: boolean };
export type ExcerptLine = { seq: number; name: string | null; body: string; kind: string; createdAt: number };

const src = (id: string, variant: "full" | "thumb" | "blur") => `/admin/photo/${encodeURIComponent(id)}/${variant}`;

function PhotoNote({ p }: { p: ShownPhoto }) {
  return (
    <span className="a-muted">
      {p.held ? "held for the appeal window" : p.review}
      {p.isPrivate ? " · private" : ""}
    </span>
  );
}

/** The reported photo, large; blurred until revealed when the case asks for it. */
export function ReportedPhoto({
  photo,
  blurred,
  revealed,
}: {
  photo: ShownPhoto;
  blurred: boolean;
  revealed: boolean;
}) {
  const hidden = blurred && !revealed;
  return (
    <figure className="a-case-photo">
      <img
        src={src(photo.id, hidden ? "blur" : "full")}
        alt={hidden ? "The reported upload, blurred" : "The reported upload"}
        width={480}
        height={480}
      />
      <figcaption>
        Photo <code>{photo.id}</code> · <PhotoNote p={photo} />
      </figcaption>
      {hidden ? <RevealForm /> : null}
    </figure>
  );
}

/** A profile's photos as thumbnails (a fake-profile case), blurred like a reported photo when asked. */
export function ProfilePhotos({
  photos,
  blurred,
  revealed,
}: {
  photos: ShownPhoto[];
  blurred: boolean;
  revealed: boolean;
}) {
  if (photos.length === 0) return <p className="a-muted">No photos.</p>;
  const hidden = blurred && !revealed;
  return (
    <>
      <ul className="a-thumbs">
        {photos.map((p, i) => (
          <li key={p.id}>
            <strong>Photo {i + 1}</strong>{" "}
            <a href={hidden ? undefined : src(p.id, "full")}>
              <img
                src={src(p.id, hidden ? "blur" : "thumb")}
                alt={`Upload ${i + 1} of the profile`}
                width={160}
                height={160}
              />
            </a>
            <PhotoNote p={p} />
          </li>
        ))}
      </ul>
      {hidden ? <RevealForm /> : null}
    </>
  );
}

function RevealForm() {
  return (
    <form method="post">
      <input type="hidden" name="intent" value="reveal" />
      <p className="a-muted">Blurred: reported as showing a minor or intimate images shared without consent.</p>
      <button type="submit" className="a-btn a-btn-quiet">
        Show the photo (logged)
      </button>
    </form>
  );
}

/** The reported message among the ones around it, or the button that opens them (logged). */
export function MessageExcerpt({ excerpt, seq }: { excerpt?: ExcerptLine[] | null; seq: number }) {
  if (!excerpt)
    return (
      <form method="post">
        <input type="hidden" name="intent" value="excerpt" />
        <button type="submit" className="a-btn a-btn-quiet">
          Show the reported message with ten before and after (logged)
        </button>
      </form>
    );
  if (excerpt.length === 0) return <p className="a-muted">The conversation no longer holds these messages.</p>;
  return (
    <ol className="a-excerpt">
      {excerpt.map((m) => (
        <li key={m.seq} className={m.seq === seq ? "a-reported" : undefined}>
          <strong>{m.name ?? "(deleted member)"}</strong> <span className="a-muted">{when(m.createdAt)}</span>:{" "}
          {m.kind === "gift" ? "(gift)" : m.body}
          {m.seq === seq ? <span className="a-badge a-badge-red">reported</span> : null}
        </li>
      ))}
    </ol>
  );
}

/** A reported profile's words: its display name and its about-me (as they are now, on an appeal). */
export function ProfileFacts({ name, aboutMe, now }: { name: string; aboutMe: string | null; now?: boolean }) {
  return (
    <Facts
      items={[
        [now ? "Display name now" : "Display name", name],
        [now ? "About me now" : "About me", aboutMe || "(empty)", "a-pre"],
      ]}
    />
  );
}
