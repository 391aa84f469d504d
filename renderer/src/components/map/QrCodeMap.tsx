import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { drawMap, mapColours } from './draw-map.ts';
import { boundsOf, countsOf, type MapPoints } from './map-points.ts';
import { nearestPoint, projectionFor, projectPoints } from './map-view.ts';
import { MapKeyboard } from './MapKeyboard.tsx';
import { loadOutlines, type Outlines } from './outlines.ts';
import { PRECISIONS } from './precisions.ts';
import './qr-map.css';

/** How far from a click (CSS pixels) the nearest point still counts as clicked. */
const REACH = 10;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

function useWidth(element: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/** Follows the system's light or dark mode, so the canvas redraws in the page's colours. */
function useColourScheme(): string {
  const [scheme, setScheme] = useState(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  useEffect(() => {
    const query = matchMedia('(prefers-color-scheme: dark)');
    const change = () => setScheme(query.matches ? 'dark' : 'light');
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return scheme;
}

/** The map's text for screen readers (and the tests): how many points, per state and per precision. */
function summaryOf(points: MapPoints, state: string): string {
  const counts = countsOf(points);
  const states = counts.states.map(([name, n]) => `${name || 'no state'} ${n.toLocaleString()}`).join(', ');
  const precisions = PRECISIONS.flatMap((p, i) => (counts.precisions[i] ? [`${p.label} ${counts.precisions[i]?.toLocaleString()}`] : []));
  const view = state ? `Zoomed to ${state}. ` : '';
  return `Map of ${plural(points.count, 'QR code', 'QR codes')}. ${view}By state: ${states || 'none'}. Located by: ${precisions.join(', ') || 'none'}.`;
}

/** A QR code that something just happened at, ringed on the map and named in its text. */
export interface MapMark {
  uuid: string;
  /** What happened there, in words ("Check-in · Plumbing · 12 Smith St, Fitzroy VIC 3065"). */
  label: string;
}

/**
 * QR codes on country outlines, each point in the colour of how it was located, drawn on a canvas
 * (d3-geo): "Zoom to" fits one state's points, a click opens the nearest point's QR code, and the
 * keyboard moves from point to point (MapKeyboard.tsx).
 */

export function QrCodeMap({
  points,
  label,
  onOpen,
  marks = [],
}: {
  points: MapPoints;
  label: string;
  onOpen(uuid: string): void;
  marks?: readonly MapMark[];
}) {
  const [frame, setFrame] = useState<HTMLDivElement | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(frame);
  const height = Math.round(Math.min(520, Math.max(260, width * 0.55)));
  const scheme = useColourScheme();
  const [outlines, setOutlines] = useState<Outlines | null>(null);
  const [state, setState] = useState('');
  const [overPoint, setOverPoint] = useState(false);
  const keysId = useId();

  useEffect(() => {
    let live = true;
    void loadOutlines().then((loaded) => live && setOutlines(loaded));
    return () => {
      live = false;
    };
  }, []);

  const counts = useMemo(() => countsOf(points), [points]);
  const states = counts.states.filter(([name]) => name !== '');
  const zoomed = state !== '' && states.some(([name]) => name === state) ? state : '';
  const projection = useMemo(
    () => projectionFor(boundsOf(points, zoomed || undefined), Math.max(width, 1), height),
    [points, zoomed, width, height],
  );
  /** Where each point is drawn (for clicks and the keyboard), and how long placing them took. */
  const projected = useMemo(() => {
    const started = performance.now();
    const xy = projectPoints(points, projection);
    return { xy, ms: performance.now() - started };
  }, [points, projection]);
  // Keyed by the ringed uuids, so a page that re-renders every second does not redraw for nothing.
  const markKey = marks.map((m) => m.uuid).join(' ');
  const rings = useMemo(() => {
    const wanted = new Set(markKey.split(' '));
    return points.uuid.flatMap((uuid, i) => (wanted.has(uuid) ? [i] : []));
  }, [points, markKey]);

  useEffect(() => {
    const element = canvas.current;
    if (!element || width === 0) return;
    const ratio = window.devicePixelRatio || 1;
    element.width = Math.round(width * ratio);
    element.height = Math.round(height * ratio);
    const started = performance.now();
    drawMap(element, { width, height }, projection, outlines, points, projected.xy, mapColours(element), rings);
    element.dataset.rings = String(rings.length);
    // Read by the benchmark (test/e2e/qrcode-map-100k.test.ts): projecting and drawing, outlines included.
    element.dataset.drawMs = (projected.ms + performance.now() - started).toFixed(1);
    element.dataset.outlines = outlines ? 'drawn' : 'loading';
    // The scheme changes the colours the canvas reads from CSS.
    void scheme;
  }, [width, height, projection, projected, outlines, points, scheme, rings]);

  const pointAt = (event: React.MouseEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return nearestPoint(projected.xy, event.clientX - box.left, event.clientY - box.top, REACH);
  };

  return (
    <div className="qr-map">
      <div className="qr-map-toolbar">
        <div className="field">
          <label htmlFor="qr-map-zoom">Zoom to</label>
          <select id="qr-map-zoom" value={zoomed} onChange={(event) => setState(event.target.value)}>
            <option value="">All QR codes</option>
            {states.map(([name, n]) => (
              <option key={name} value={name}>
                {name} ({n.toLocaleString()})
              </option>
            ))}
          </select>
        </div>
        <ul className="qr-map-legend" aria-label="Located by">
          {PRECISIONS.map((p, i) =>
            counts.precisions[i] ? (
              <li key={p.key} data-precision={p.key}>
                <span className="qr-map-swatch" style={{ background: `var(${p.colour})` }} aria-hidden="true" />
                {p.label} ({counts.precisions[i]?.toLocaleString()})
              </li>
            ) : null,
          )}
        </ul>
      </div>
      <div className="qr-map-frame" ref={setFrame}>
        <canvas
          ref={canvas}
          role="img"
          aria-label={`${label}. ${summaryOf(points, zoomed)}${marks.length > 0 ? ` Ringed, just now: ${marks.map((m) => m.label).join('; ')}.` : ''}`}
          data-view={zoomed || 'all'}
          className={overPoint ? 'qr-map-over-point' : undefined}
          style={{ height }}
          onClick={(event) => {
            const i = pointAt(event);
            const uuid = i >= 0 ? points.uuid[i] : undefined;
            if (uuid) onOpen(uuid);
          }}
          onMouseMove={(event) => setOverPoint(pointAt(event) >= 0)}
        />
        <MapKeyboard
          points={points}
          xy={projected.xy}
          width={width}
          height={height}
          label={label}
          keysId={keysId}
          zoomed={zoomed}
          onZoom={setState}
          onOpen={onOpen}
        />
      </div>
      <p className="muted qr-map-note">
        {points.count > 0 ? (
          <>
            Click a point to open its QR code.{' '}
            <span id={keysId}>
              On the keyboard: Tab to the map, then the arrow keys go to the nearest point that way, Page Down and Page Up through every
              point, Enter opens its QR code, + zooms to its state and − back out, Esc leaves the point.
            </span>{' '}
          </>
        ) : (
          'No QR code has coordinates yet. '
        )}
        {points.notLocated > 0 &&
          `${plural(points.notLocated, 'QR code has', 'QR codes have')} no coordinates and ${points.notLocated === 1 ? 'is' : 'are'} not drawn. `}
        Outlines: Natural Earth (public domain), shipped with the app.
      </p>
    </div>
  );
}
