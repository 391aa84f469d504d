import type { GetAnswer } from '../../api/get-query.ts';
import { precisionIndex } from './precisions.ts';

export type PointsAnswer = GetAnswer<'/api/qrcodes/points'>;

/** The answer's columns, with each point's legend entry and state read once. */
export interface MapPoints {
  count: number;
  notLocated: number;
  uuid: string[];
  longitude: Float64Array;
  latitude: Float64Array;
  /** Index into PRECISIONS. */
  precision: Uint8Array;
  /** '' when the record has none. */
  state: string[];
}

export function mapPoints(answer: PointsAnswer): MapPoints {
  const count = answer.count;
  const precision = new Uint8Array(count);
  for (let i = 0; i < count; i++) precision[i] = precisionIndex(answer.precision[i] ?? null);
  return {
    count,
    notLocated: answer.not_located,
    uuid: answer.uuid,
    longitude: Float64Array.from(answer.longitude),
    latitude: Float64Array.from(answer.latitude),
    precision,
    state: answer.state.map((s) => s ?? ''),
  };
}

/** Longitude and latitude bounds of the points (of one state when given): [[west, south], [east, north]], or null. */
export function boundsOf(points: MapPoints, state?: string): [[number, number], [number, number]] | null {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (let i = 0; i < points.count; i++) {
    if (state !== undefined && points.state[i] !== state) continue;
    const lon = points.longitude[i] ?? 0;
    const lat = points.latitude[i] ?? 0;
    if (lon < west) west = lon;
    if (lon > east) east = lon;
    if (lat < south) south = lat;
    if (lat > north) north = lat;
  }
  return west === Infinity
    ? null
    : [
        [west, south],
        [east, north],
      ];
}

/** Counts per state, most first, then per precision: what the map's text summary says. */
export function countsOf(points: MapPoints): { states: [string, number][]; precisions: number[] } {
  const states = new Map<string, number>();
  const precisions: number[] = [];
  for (let i = 0; i < points.count; i++) {
    const state = points.state[i] ?? '';
    states.set(state, (states.get(state) ?? 0) + 1);
    const p = points.precision[i] ?? 0;
    precisions[p] = (precisions[p] ?? 0) + 1;
  }
  return { states: [...states].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])), precisions };
}
