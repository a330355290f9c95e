/** What every lander visual shares: the loader's member and copy shapes and the photo helpers. */
export interface LanderMember {
  id: string;
  name: string;
  age: number;
  city: string;
  photoId: string;
  ago: string;
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
  live: string;
  upNext: string;
  play: string;
  like: string;
  pass: string;
  comment: string;
  swipeHint: string;
  doneTitle: string;
  doneText: string;
  typing: string;
  reply: string;
  posts: string[];
  bubbles: string[];
  steps: { title: string; text: string }[];
}

export type VisualProps = { copy: LanderCopy; members: LanderMember[] };

export const photo = (m: LanderMember) => `/photos/${m.photoId}/thumb`;
export const label = (m: LanderMember) => `${m.name}, ${m.age}`;

export function Photo({ m, className, eager }: { m: LanderMember; className?: string; eager?: boolean }) {
  return (
    <img
      src={photo(m)}
      alt=""
      className={className}
      width={400}
      height={400}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
    />
  );
}
