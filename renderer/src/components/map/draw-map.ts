import { type GeoProjection, geoPath } from 'd3-geo';
import type { MapPoints } from './map-points.ts';
import type { Outlines } from './outlines.ts';
import { PRECISIONS } from './precisions.ts';

/** The colours of the map, read from qr-map.css's variables (so light and dark mode follow the page). */
export interface MapColours {
  sea: string;
  land: string;
  border: string;
  points: string[];
}

export function mapColours(element: Element): MapColours {
  const style = getComputedStyle(element);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return { sea: read('--map-sea'), land: read('--map-land'), border: read('--map-border'), points: PRECISIONS.map((p) => read(p.colour)) };
}

export const POINT_RADIUS = 3.5;

/** Draws the outlines, then the points, one path per colour (a canvas, so 100,000 points draw at once). */
export function drawMap(
  context: CanvasRenderingContext2D,
  size: { width: number; height: number },
  projection: GeoProjection,
  outlines: Outlines | null,
  points: MapPoints,
  xy: Float32Array,
  colours: MapColours,
): void {
  context.fillStyle = colours.sea;
  context.fillRect(0, 0, size.width, size.height);
  if (outlines) {
    const path = geoPath(projection, context);
    context.beginPath();
    path(outlines.land);
    context.fillStyle = colours.land;
    context.fill();
    context.beginPath();
    path(outlines.borders);
    context.strokeStyle = colours.border;
    context.lineWidth = 1;
    context.stroke();
  }
  for (let p = 0; p < PRECISIONS.length; p++) {
    context.beginPath();
    for (let i = 0; i < points.count; i++) {
      if (points.precision[i] !== p) continue;
      const x = xy[2 * i] ?? Number.NaN;
      const y = xy[2 * i + 1] ?? Number.NaN;
      if (Number.isNaN(x) || x < -POINT_RADIUS || y < -POINT_RADIUS || x > size.width + POINT_RADIUS || y > size.height + POINT_RADIUS)
        continue;
      context.moveTo(x + POINT_RADIUS, y);
      context.arc(x, y, POINT_RADIUS, 0, 2 * Math.PI);
    }
    context.fillStyle = colours.points[p] ?? '#000';
    context.fill();
  }
}
