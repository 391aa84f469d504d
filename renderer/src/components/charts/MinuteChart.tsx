import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './minute-chart.css';

/** One drawn series: a CSS variable of styles.css for its colour, its values per minute. */
export interface ChartSeries {
  label: string;
  colorVar: string;
  values: (number | null)[];
}

interface MinuteChartProps {
  /** Minutes, ISO 8601 UTC to the minute (YYYY-MM-DDTHH:MM), oldest first. */
  minutes: string[];
  /** Stacked bars, bottom first (a count per minute). */
  bars: ChartSeries[];
  /** A line over the bars on its own scale at the right, e.g. answer time in ms. */
  line?: ChartSeries & { unit: string };
  /** What the chart shows, in words: the figure's caption and the only thing a screen reader gets. */
  summary: string;
  height?: number;
}

const color = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || 'currentColor';
const seconds = (minute: string) => Date.parse(`${minute}:00Z`) / 1000;

/** Each bar series as the sum of it and those below it, so drawing the tallest first stacks them. */
function stacked(bars: ChartSeries[], length: number): number[][] {
  const sums: number[][] = [];
  let below = new Array<number>(length).fill(0);
  for (const series of bars) {
    below = below.map((value, i) => value + (series.values[i] ?? 0));
    sums.push(below);
  }
  return sums;
}

/** The fewest minutes drawn: a chart of a few minutes' activity keeps bars wide enough to see. */
const MIN_MINUTES = 15;

/**
 * Where the drawn minutes start: the leading minutes with nothing in them are left out (the axis
 * says when it starts), but never so many that fewer than MIN_MINUTES remain. With no data at all,
 * every minute.
 */
export function firstDrawnMinute({ minutes, bars, line }: Pick<MinuteChartProps, 'minutes' | 'bars' | 'line'>): number {
  const series = [...bars, ...(line ? [line] : [])];
  const first = minutes.findIndex((_m, i) => series.some((s) => (s.values[i] ?? 0) > 0));
  return first < 0 ? 0 : Math.max(0, Math.min(first, minutes.length - MIN_MINUTES));
}

function dataOf(props: MinuteChartProps): uPlot.AlignedData {
  const from = firstDrawnMinute(props);
  const minutes = props.minutes.slice(from);
  const bars = props.bars.map((b) => ({ ...b, values: b.values.slice(from) }));
  const sums = stacked(bars, minutes.length).reverse();
  return [minutes.map(seconds), ...sums, ...(props.line ? [props.line.values.slice(from)] : [])];
}

/** Tick steps of a count axis: whole numbers only. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000];

/** From 0 to a little above the highest value, so the top bar and its label stay inside the plot. */
const headroom = (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, Math.max(4, Math.ceil(max * 1.2))];

function optionsOf({ bars, line, height = 160 }: MinuteChartProps, width: number): uPlot.Options {
  const text = color('--muted');
  const grid = color('--border');
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const barPaths = uPlot.paths.bars?.({ size: [0.8, 24], align: 0 });
  return {
    width,
    height,
    legend: { show: false },
    cursor: { show: false },
    scales: { x: { time: true }, y: { range: headroom }, ms: { range: headroom } },
    axes: [
      // Time labels ("12:45pm") at least 70 px apart, so they never touch at 800 px.
      { ...axis, space: 70 },
      { ...axis, scale: 'y', size: 40, incrs: COUNT_STEPS, values: (_u, splits) => splits.map((v) => String(v)) },
      ...(line
        ? [
            {
              ...axis,
              scale: 'ms',
              side: 1,
              size: 72,
              grid: { show: false },
              values: (_u: uPlot, splits: number[]) => splits.map((v) => `${v} ${line.unit}`),
            },
          ]
        : []),
    ],
    series: [
      {},
      ...[...bars].reverse().map((series) => ({
        label: series.label,
        scale: 'y',
        fill: color(series.colorVar),
        stroke: color(series.colorVar),
        width: 0,
        paths: barPaths,
        points: { show: false },
      })),
      ...(line
        ? [{ label: line.label, scale: 'ms', stroke: color(line.colorVar), width: 2, spanGaps: false, points: { show: true, size: 4 } }]
        : []),
    ],
  };
}

/**
 * Counts per minute as stacked bars (uPlot on a canvas), in the colours of the current light or dark
 * theme, at the width of its box and a fixed height, so new data never moves the page; from the
 * first minute with data (firstDrawnMinute). The canvas is hidden from screen readers; the summary
 * beside it says what it shows.
 */
export function MinuteChart(props: MinuteChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const shape = `${props.bars.map((b) => b.label).join('|')}|${props.line?.label ?? ''}|${props.height ?? 160}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new chart only when the series drawn change; data goes through setData
  useEffect(() => {
    const target = box.current;
    if (!target) return;
    const draw = () => {
      chart.current?.destroy();
      chart.current = new uPlot(optionsOf(latest.current, target.clientWidth), dataOf(latest.current), target);
    };
    draw();
    const resized = new ResizeObserver(() => {
      const u = chart.current;
      if (u && u.width !== target.clientWidth) u.setSize({ width: target.clientWidth, height: u.height });
    });
    resized.observe(target);
    const theme = window.matchMedia('(prefers-color-scheme: dark)');
    theme.addEventListener('change', draw);
    return () => {
      theme.removeEventListener('change', draw);
      resized.disconnect();
      chart.current?.destroy();
      chart.current = null;
    };
  }, [shape]);

  useEffect(() => {
    chart.current?.setData(dataOf(props));
  });

  return (
    <figure className="minute-chart">
      <div className="minute-chart-canvas" ref={box} aria-hidden="true" style={{ height: props.height ?? 160 }} />
      <figcaption>
        <ul className="minute-chart-key" aria-hidden="true">
          {[...props.bars, ...(props.line ? [props.line] : [])].map((series) => (
            <li key={series.label}>
              <span className="minute-chart-swatch" style={{ background: `var(${series.colorVar})` }} />
              {series.label}
            </li>
          ))}
        </ul>
        <p className="minute-chart-summary">{props.summary}</p>
      </figcaption>
    </figure>
  );
}
