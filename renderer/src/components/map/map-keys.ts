/** The keys that move the keyboard's point on the map (MapKeyboard.tsx). */
export const MOVE_KEYS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageDown', 'PageUp'] as const;
export type MoveKey = (typeof MOVE_KEYS)[number];

export const isMoveKey = (key: string): key is MoveKey => (MOVE_KEYS as readonly string[]).includes(key);

/** Height in CSS pixels of a "line" of the reading order: points this close in height are read left to right. */
const LINE = 24;

const DIRECTIONS: Partial<Record<MoveKey, [number, number]>> = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
};

/**
 * The points drawn inside a width × height canvas, in reading order: lines of LINE pixels from
 * the top, each from left to right (`xy`: x and y of each point, interleaved, as projectPoints gives them).
 */
export function pointsInReadingOrder(xy: Float32Array, width: number, height: number): number[] {
  const shown: number[] = [];
  for (let i = 0; i < xy.length / 2; i++) {
    const x = xy[2 * i] ?? Number.NaN;
    const y = xy[2 * i + 1] ?? Number.NaN;
    if (x >= 0 && y >= 0 && x <= width && y <= height) shown.push(i);
  }
  const line = (i: number) => Math.floor((xy[2 * i + 1] ?? 0) / LINE);
  return shown.sort((a, b) => line(a) - line(b) || (xy[2 * a] ?? 0) - (xy[2 * b] ?? 0) || a - b);
}

/**
 * The point a key moves to from `from` (-1: none yet), among `order` (pointsInReadingOrder), or -1
 * when there is none that way. An arrow goes to the nearest point in its direction, a point off
 * to the side counting double; from no point it enters from the opposite edge (→ the westmost).
 * Page Down / Page Up go to the next / previous point in reading order, so every point is reached,
 * also those drawn on top of one another; Home and End to the first and the last.
 */
export function nextPoint(
  xy: Float32Array,
  order: readonly number[],
  from: number,
  key: MoveKey,
  size: { width: number; height: number },
): number {
  if (order.length === 0) return -1;
  const at = order.indexOf(from);
  switch (key) {
    case 'Home':
      return order[0] ?? -1;
    case 'End':
      return order[order.length - 1] ?? -1;
    case 'PageDown':
      return order[at + 1] ?? -1;
    case 'PageUp':
      return at < 0 ? (order[order.length - 1] ?? -1) : (order[at - 1] ?? -1);
    default:
      return nearestThatWay(xy, order, at < 0 ? -1 : from, DIRECTIONS[key] ?? [1, 0], size);
  }
}

function nearestThatWay(
  xy: Float32Array,
  order: readonly number[],
  from: number,
  [dx, dy]: [number, number],
  { width, height }: { width: number; height: number },
): number {
  // With no point yet, start just outside the edge the arrow points away from.
  const x0 = from >= 0 ? (xy[2 * from] ?? 0) : dx === 0 ? width / 2 : dx > 0 ? -1 : width + 1;
  const y0 = from >= 0 ? (xy[2 * from + 1] ?? 0) : dy === 0 ? height / 2 : dy > 0 ? -1 : height + 1;
  let best = -1;
  let bestScore = Infinity;
  for (const i of order) {
    const ox = (xy[2 * i] ?? 0) - x0;
    const oy = (xy[2 * i + 1] ?? 0) - y0;
    const along = ox * dx + oy * dy;
    if (along < 0.5) continue;
    const score = along + 2 * Math.abs(ox * dy - oy * dx);
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}
