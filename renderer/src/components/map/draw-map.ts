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
  /** The ring around a point that something just happened at (the demo's live events). */
  ring: string;
}

export function mapColours(element: Element): MapColours {
  const style = getComputedStyle(element);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return {
    sea: read('--map-sea'),
    land: read('--map-land'),
    border: read('--map-border'),
    points: PRECISIONS.map((p) => read(p.colour)),
    ring: read('--map-ring'),
  };
}

/** A point's radius in CSS pixels. */
export const POINT_RADIUS = 3.5;

/** A CSS colour as the canvas's pixels hold it (RGBA bytes read as one little-endian number). */
function pixelOf(colour: string): number {
  const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
  probe.fillStyle = colour;
  probe.fillRect(0, 0, 1, 1);
  return new Uint32Array(probe.getImageData(0, 0, 1, 1).data.buffer)[0] ?? 0;
}

/** The pixel offsets of a disc of radius r. */
function disc(r: number): [number, number][] {
  const offsets: [number, number][] = [];
  const reach = Math.ceil(r);
  for (let dy = -reach; dy <= reach; dy++) for (let dx = -reach; dx <= reach; dx++) if (dx * dx + dy * dy <= r * r) offsets.push([dx, dy]);
  return offsets;
}

/**
 * The points as pixels: each a disc stamped straight into an image, best precision first so the
 * doubtful ones lie on top. Paths of 100,000 arcs take the canvas most of a second; this takes a few ms.
 */
function stampPoints(width: number, height: number, ratio: number, points: MapPoints, xy: Float32Array, colours: MapColours): ImageData {
  const image = new ImageData(width, height);
  const pixels = new Uint32Array(image.data.buffer);
  const offsets = disc(POINT_RADIUS * ratio);
  const inks = colours.points.map(pixelOf);
  for (let p = 0; p < PRECISIONS.length; p++) {
    const ink = inks[p] ?? 0;
    for (let i = 0; i < points.count; i++) {
      if (points.precision[i] !== p) continue;
      const x = Math.round((xy[2 * i] ?? Number.NaN) * ratio);
      const y = Math.round((xy[2 * i + 1] ?? Number.NaN) * ratio);
      if (!(x > -8 && y > -8 && x < width + 8 && y < height + 8)) continue;
      for (const [dx, dy] of offsets) {
        const px = x + dx;
        const py = y + dy;
        if (px >= 0 && py >= 0 && px < width && py < height) pixels[py * width + px] = ink;
      }
    }
  }
  return image;
}

/** Radius in CSS pixels of the ring around a point that something just happened at. */
export const RING_RADIUS = 9;

/**
 * Draws the sea, the land and the borders, then the points (a canvas: 100,000 points draw at once),
 * then a ring around each point of `rings` (indices into the points).
 */
export function drawMap(
  canvas: HTMLCanvasElement,
  size: { width: number; height: number },
  projection: GeoProjection,
  outlines: Outlines | null,
  points: MapPoints,
  xy: Float32Array,
  colours: MapColours,
  rings: readonly number[] = [],
): void {
  const context = canvas.getContext('2d');
  if (!context) return;
  const ratio = canvas.width / size.width;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
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
  const layer = document.createElement('canvas');
  layer.width = canvas.width;
  layer.height = canvas.height;
  layer.getContext('2d')?.putImageData(stampPoints(canvas.width, canvas.height, ratio, points, xy, colours), 0, 0);
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.drawImage(layer, 0, 0);
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.strokeStyle = colours.ring;
  context.lineWidth = 2.5;
  for (const i of rings) {
    const x = xy[2 * i];
    const y = xy[2 * i + 1];
    if (x === undefined || y === undefined || Number.isNaN(x) || Number.isNaN(y)) continue;
    context.beginPath();
    context.arc(x, y, RING_RADIUS, 0, 2 * Math.PI);
    context.stroke();
  }
}
