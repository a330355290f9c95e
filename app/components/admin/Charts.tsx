/**
 * The dashboard's charts as server-rendered SVG (decision 177): the console ships no JavaScript, and
 * two charts read at a glance do not need a charting library. Each scales to its box (viewBox).
 */
import { money } from "./labels";

const W = 720;
const H = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 64 };

/** A rounded upper bound with a readable step (1, 2 or 5 × 10^n). */
function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (v <= m * p) return m * p;
  return 10 * p;
}

const dayLabel = (day: number) => new Date(day * 86_400_000).toISOString().slice(5, 10);

/** Net revenue per day in one currency: bars above the line, refunds and chargebacks below it. */
export function RevenueChart({ series, currency, firstDay }: { series: number[]; currency: string; firstDay: number }) {
  const max = niceMax(Math.max(0, ...series));
  const min = -niceMax(Math.max(0, ...series.map((v) => -v)));
  const low = Math.min(0, series.some((v) => v < 0) ? min : 0);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + ((max - v) / (max - low)) * innerH;
  const step = innerW / series.length;
  const total = series.reduce((a, b) => a + b, 0);
  const ticks = low < 0 ? [max, 0, low] : [max, max / 2, 0];
  return (
    <figure className="a-chart">
      <figcaption>
        Net revenue per day, {currency} · 30 days: <strong>{money(total, currency)}</strong>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Net revenue per day in ${currency}`}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className={t === 0 ? "a-axis" : "a-grid"} />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" className="a-tick">
              {Math.round(t / 100).toLocaleString("en")}
            </text>
          </g>
        ))}
        {series.map((v, i) => {
          const top = Math.min(y(v), y(0));
          const h = Math.abs(y(v) - y(0));
          return (
            <rect
              key={i}
              x={PAD.left + i * step + step * 0.15}
              y={top}
              width={step * 0.7}
              height={Math.max(v === 0 ? 0 : 1, h)}
              className={v < 0 ? "a-bar-neg" : "a-bar"}
            >
              <title>
                {dayLabel(firstDay + i)}: {money(v, currency)}
              </title>
            </rect>
          );
        })}
        {series.map((_, i) =>
          i % 5 === 0 || i === series.length - 1 ? (
            <text key={i} x={PAD.left + i * step + step / 2} y={H - 8} textAnchor="middle" className="a-tick">
              {dayLabel(firstDay + i)}
            </text>
          ) : null,
        )}
      </svg>
    </figure>
  );
}

/** Sign-ups → activations → first purchase as bars of one scale, each with its share of the first. */
export function Funnel({ steps, caption }: { steps: { label: string; n: number }[]; caption: string }) {
  const first = steps[0]?.n ?? 0;
  // A narrower drawing than the revenue chart, so its words read at the same size in a narrower box.
  const FW = 460;
  const rowH = 40;
  const labelW = 120;
  const barW = FW - labelW - 120;
  const h = steps.length * rowH + 8;
  return (
    <figure className="a-chart">
      <figcaption>{caption}</figcaption>
      <svg viewBox={`0 0 ${FW} ${h}`} role="img" aria-label={caption}>
        {steps.map((s, i) => {
          const w = first > 0 ? Math.max(2, (s.n / first) * barW) : 2;
          const yTop = 4 + i * rowH;
          const share = first > 0 ? `${((s.n / first) * 100).toFixed(1)} %` : "–";
          return (
            <g key={s.label}>
              <text x={0} y={yTop + rowH / 2 + 2} className="a-funnel-label">
                {s.label}
              </text>
              <rect x={labelW} y={yTop + 6} width={w} height={rowH - 14} rx={3} className={`a-funnel-${i}`} />
              <text x={labelW + w + 8} y={yTop + rowH / 2 + 2} className="a-funnel-value">
                {s.n.toLocaleString("en")} · {share}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
