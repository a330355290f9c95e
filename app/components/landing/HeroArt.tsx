import type { Niche } from "~/lib/constants";

/**
 * Generated background art for each niche's hero (no external images): a few soft shapes drawn in SVG,
 * coloured by the niche's CSS variables. Decorative only.
 */
const HEART = "M0 -6C-3 -12 -14 -11 -14 -2c0 7 9 12 14 17 5-5 14-10 14-17 0-9-11-10-14-4z";

function Hearts({ items }: { items: [number, number, number, number][] }) {
  return (
    <>
      {items.map(([x, y, s, o], i) => (
        <path key={i} d={HEART} transform={`translate(${x} ${y}) scale(${s})`} fill="#fff" opacity={o} />
      ))}
    </>
  );
}

function Rings({ items, width = 2 }: { items: [number, number, number, number][]; width?: number }) {
  return (
    <>
      {items.map(([x, y, r, o], i) => (
        <circle key={i} cx={x} cy={y} r={r} fill="none" stroke="#fff" strokeWidth={width} opacity={o} />
      ))}
    </>
  );
}

function Dots({ items }: { items: [number, number, number, number][] }) {
  return (
    <>
      {items.map(([x, y, r, o], i) => (
        <circle key={i} cx={x} cy={y} r={r} fill="#fff" opacity={o} />
      ))}
    </>
  );
}

const art: Record<Niche, () => JSX.Element> = {
  general: () => (
    <>
      <Hearts
        items={[
          [1060, 110, 4, 0.1],
          [1290, 470, 2.4, 0.1],
          [1360, 80, 1.4, 0.14],
          [640, 560, 1.2, 0.08],
        ]}
      />
      <Rings
        items={[
          [1150, 250, 220, 0.08],
          [1150, 250, 300, 0.05],
        ]}
      />
    </>
  ),
  she: () => (
    <>
      <Dots
        items={[
          [1100, 140, 120, 0.08],
          [1280, 360, 80, 0.1],
          [930, 380, 46, 0.1],
          [160, 420, 60, 0.06],
          [1360, 120, 30, 0.14],
          [820, 90, 18, 0.16],
        ]}
      />
      <Hearts items={[[1180, 240, 2, 0.16]]} />
    </>
  ),
  bdsm: () => (
    <>
      {Array.from({ length: 12 }, (_, i) => (
        <line
          key={i}
          x1={700 + i * 70}
          y1={0}
          x2={400 + i * 70}
          y2={600}
          stroke="#fff"
          strokeWidth={1.5}
          opacity={0.06}
        />
      ))}
      <Rings
        width={10}
        items={[
          [1120, 230, 70, 0.14],
          [1220, 230, 70, 0.12],
          [1320, 230, 70, 0.1],
        ]}
      />
    </>
  ),
  bbw: () => (
    <>
      <path d="M700 600C820 420 980 520 1090 380S1300 160 1440 220V600z" fill="#fff" opacity={0.08} />
      <path d="M820 600C940 480 1060 560 1180 450S1360 330 1440 360V600z" fill="#fff" opacity={0.08} />
      <Dots
        items={[
          [1180, 150, 70, 0.1],
          [1330, 90, 36, 0.12],
        ]}
      />
    </>
  ),
  gilf: () => (
    <>
      <Rings
        width={1.5}
        items={[
          [1200, 240, 90, 0.16],
          [1200, 240, 150, 0.12],
          [1200, 240, 210, 0.08],
          [1200, 240, 270, 0.05],
        ]}
      />
      <Dots
        items={[
          [1200, 240, 10, 0.3],
          [980, 120, 5, 0.3],
          [1380, 420, 6, 0.3],
        ]}
      />
    </>
  ),
  milf: () => (
    <>
      <path d="M1180 60l22 62 62 22-62 22-22 62-22-62-62-22 62-22z" fill="#fff" opacity={0.16} />
      <path d="M1320 300l12 34 34 12-34 12-12 34-12-34-34-12 34-12z" fill="#fff" opacity={0.18} />
      <path d="M960 360l9 25 25 9-25 9-9 25-9-25-25-9 25-9z" fill="#fff" opacity={0.16} />
      <Rings items={[[1180, 170, 200, 0.06]]} />
    </>
  ),
  gay: () => (
    <>
      {["#e40303", "#ff8c00", "#ffed00", "#008026", "#24408e", "#732982"].map((c, i) => (
        <path
          key={c}
          d={`M${640 + i * 34} 620C${900 + i * 34} 300 ${1100 + i * 34} 260 ${1460} ${120 + i * 34}`}
          fill="none"
          stroke={c}
          strokeWidth={30}
          opacity={0.2}
        />
      ))}
      <Dots items={[[1250, 420, 60, 0.06]]} />
    </>
  ),
};

export function HeroArt({ niche }: { niche: Niche }) {
  const Art = art[niche];
  return (
    <svg
      className="hero-art"
      viewBox="0 0 1440 600"
      preserveAspectRatio="xMaxYMid slice"
      aria-hidden="true"
      focusable="false"
    >
      <Art />
    </svg>
  );
}
