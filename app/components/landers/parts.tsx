/** What every lander visual shares: the loader's member and copy shapes and the photo helpers. */
export interface LanderMember {
  id: string;
  name: string;
  age: number;
  city: string;
  photoId: string;
  near: boolean;
  x: number | null;
  y: number | null;
}
export interface LanderCopy {
  kicker: string;
  headline: string;
  lead: string;
  cta: string;
  points: string[];
  online: string;
  locked: string;
  report: string;
  near: string;
  you: string;
  reel: string;
  upNext: string;
  play: string;
  like: string;
  pass: string;
  comment: string;
  swipeHint: string;
  doneTitle: string;
  doneText: string;
  reply: string;
  steps: { title: string; text: string }[];
}

export type VisualProps = { copy: LanderCopy; members: LanderMember[] };

export const photo = (m: LanderMember, variant: "thumb" | "full" = "thumb") => `/photos/${m.photoId}/${variant}`;
export const label = (m: LanderMember) => `${m.name}, ${m.age}`;

/** `full`: for a picture shown larger than the thumbnail's edge (the swipe cards), so it is not upscaled. */
export function Photo({
  m,
  className,
  eager,
  full,
}: {
  m: LanderMember;
  className?: string;
  eager?: boolean;
  full?: boolean;
}) {
  return (
    <img
      src={photo(m, full ? "full" : "thumb")}
      alt=""
      className={className}
      width={400}
      height={400}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
    />
  );
}
