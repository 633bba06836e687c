// Inline SVG needs no script; colours come from site.css classes because the CSP allows no style attributes.
type Bar = { label: string; value: number };

type BarChartProps = {
  title: string;
  note?: string;
  columns: readonly [string, string];
  bars: readonly Bar[];
  max?: number;
  labelWidth?: number;
  format?: (value: number) => string;
};

const WIDTH = 400;
const ROW = 26;
const BAR = 18;
const VALUE_ROOM = 40;

export function BarChart({ title, note, columns, bars, max, labelWidth = 56, format = String }: BarChartProps) {
  const full = max ?? Math.max(1, ...bars.map((bar) => bar.value));
  const room = WIDTH - labelWidth - VALUE_ROOM;
  const height = bars.length * ROW;
  return (
    <figure className="chart">
      <figcaption>
        <span className="chart-title">{title}</span>
        {note && <span className="chart-note">{note}</span>}
      </figcaption>
      <svg
        className="chart-svg"
        viewBox={`0 0 ${WIDTH} ${height}`}
        width={WIDTH}
        height={height}
        aria-hidden="true"
        focusable="false"
      >
        {bars.map((bar, index) => {
          const middle = index * ROW + ROW / 2;
          const length = Math.round((Math.max(0, bar.value) / full) * room * 10) / 10;
          return (
            <g key={bar.label}>
              <text className="chart-label" x={labelWidth - 8} y={middle} textAnchor="end" dominantBaseline="central">
                {bar.label}
              </text>
              <rect className="chart-bar" x={labelWidth} y={middle - BAR / 2} width={length} height={BAR} rx={3} />
              <text className="chart-value" x={labelWidth + length + 6} y={middle} dominantBaseline="central">
                {format(bar.value)}
              </text>
            </g>
          );
        })}
      </svg>
      {/* A hidden table is still as wide as its figures: the wrapper keeps it from widening the page. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{columns[0]}</th>
              <th scope="col">{columns[1]}</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.label}>
                <th scope="row">{bar.label}</th>
                <td>{format(bar.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
