import { type GeoProjection, geoMercator } from 'd3-geo';
import type { MapPoints } from './map-points.ts';

/**
 * The smallest span shown, in degrees (about 200 km), so one point (or one suburb) does not fill
 * the map, and the coast around it (1:50m outlines) shows where it is.
 */
const MIN_SPAN = 2;
/** With no points: Australia, where the geocoder knows the most. */
const AUSTRALIA: [[number, number], [number, number]] = [
  [112, -44],
  [154, -10],
];

/** A Mercator projection that shows `bounds` (padded, never narrower than MIN_SPAN) in a width × height canvas. */
export function projectionFor(bounds: [[number, number], [number, number]] | null, width: number, height: number): GeoProjection {
  const [[west, south], [east, north]] = bounds ?? AUSTRALIA;
  const padLon = Math.max(0, (MIN_SPAN - (east - west)) / 2);
  const padLat = Math.max(0, (MIN_SPAN - (north - south)) / 2);
  const frame = {
    type: 'MultiPoint' as const,
    coordinates: [
      [west - padLon, south - padLat],
      [east + padLon, north + padLat],
    ],
  };
  const margin = Math.min(40, width / 10);
  return geoMercator().fitExtent(
    [
      [margin, margin],
      [width - margin, height - margin],
    ],
    frame,
  );
}

/** Every point's position on the canvas, x and y interleaved (NaN when the projection cannot place it). */
export function projectPoints(points: MapPoints, projection: GeoProjection): Float32Array {
  const xy = new Float32Array(points.count * 2);
  for (let i = 0; i < points.count; i++) {
    const at = projection([points.longitude[i] ?? 0, points.latitude[i] ?? 0]);
    xy[2 * i] = at ? at[0] : Number.NaN;
    xy[2 * i + 1] = at ? at[1] : Number.NaN;
  }
  return xy;
}

/** The point nearest (x, y) within `reach` pixels, or -1. */
export function nearestPoint(xy: Float32Array, x: number, y: number, reach: number): number {
  let best = -1;
  let bestDistance = reach * reach;
  for (let i = 0; i < xy.length / 2; i++) {
    const dx = (xy[2 * i] ?? Number.NaN) - x;
    const dy = (xy[2 * i + 1] ?? Number.NaN) - y;
    const distance = dx * dx + dy * dy;
    if (distance <= bestDistance) {
      bestDistance = distance;
      best = i;
    }
  }
  return best;
}
