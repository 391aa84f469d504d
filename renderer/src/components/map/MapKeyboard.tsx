import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { getQuery } from '../../api/get-query.ts';
import { isMoveKey, nextPoint, pointsInReadingOrder } from './map-keys.ts';
import type { MapPoints } from './map-points.ts';
import { PRECISIONS } from './precisions.ts';

/** The point the keyboard is on. */
interface Cursor {
  uuid: string;
  /** Its QR code's name and address, shown beside its ring (its state when the QR code cannot be read). */
  title: string;
}

/**
 * The map for the keyboard: a focusable layer over the canvas (Tab reaches it; a click still goes
 * to the canvas). Arrow keys move to the nearest point that way, Page Down / Page Up through every
 * point in reading order, Home / End to the first and last; the point gets a visible ring, its QR
 * code's name beside it and a focused button of that name, which Enter opens. + zooms to the
 * point's state, − to all.
 */
export function MapKeyboard({
  points,
  xy,
  width,
  height,
  label,
  keysId,
  zoomed,
  onZoom,
  onOpen,
}: {
  points: MapPoints;
  /** Where each point is drawn (CSS pixels, x and y interleaved). */
  xy: Float32Array;
  width: number;
  height: number;
  label: string;
  /** The element that says which keys do what (the map's note). */
  keysId: string;
  zoomed: string;
  onZoom(state: string): void;
  onOpen(uuid: string): void;
}) {
  const queryClient = useQueryClient();
  const [cursor, setCursor] = useState<Cursor | null>(null);
  const [said, setSaid] = useState('');
  const layer = useRef<HTMLDivElement>(null);
  const focusPoint = useRef(false);
  const moves = useRef(0);
  // Sorting 100,000 points takes a moment: only once per view, and only when a key asks.
  const order = useRef<{ xy: Float32Array; width: number; height: number; order: number[] } | null>(null);
  const readingOrder = () => {
    const known = order.current;
    if (known && known.xy === xy && known.width === width && known.height === height) return known.order;
    const fresh = pointsInReadingOrder(xy, width, height);
    order.current = { xy, width, height, order: fresh };
    return fresh;
  };

  const index = useMemo(() => (cursor ? points.uuid.indexOf(cursor.uuid) : -1), [cursor, points]);
  const x = index >= 0 ? (xy[2 * index] ?? Number.NaN) : Number.NaN;
  const y = index >= 0 ? (xy[2 * index + 1] ?? Number.NaN) : Number.NaN;
  const shown = x >= 0 && y >= 0 && x <= width && y <= height;

  // The point left the view (another zoom, or it is gone): the keyboard goes back to the map.
  useEffect(() => {
    if (!cursor || shown) return;
    const hadFocus = layer.current?.contains(document.activeElement) ?? false;
    setCursor(null);
    if (hadFocus) layer.current?.focus();
  }, [cursor, shown]);

  /** What a screen reader says for the point: its QR code, how it was located, where it is in the reading order of the view. */
  const nameOf = (title: string) => {
    const inView = readingOrder();
    const precision = PRECISIONS[points.precision[index] ?? 0]?.label ?? '';
    return `${title}. Located by: ${precision}. Point ${(inView.indexOf(index) + 1).toLocaleString()} of ${inView.length.toLocaleString()} in view.`;
  };

  const moveTo = async (i: number) => {
    const uuid = points.uuid[i];
    if (uuid === undefined) return;
    const move = ++moves.current;
    let title = `A QR code${points.state[i] ? ` in ${points.state[i]}` : ''}`;
    try {
      const qr = await queryClient.fetchQuery({ ...getQuery('/api/qrcodes/uuid/{uuid}', { path: { uuid } }), staleTime: 60_000 });
      title = `${qr.name}: ${qr.location}`;
    } catch {
      // Named by its state and precision only (the QR code may have been deleted meanwhile).
    }
    if (move !== moves.current) return;
    focusPoint.current = true;
    setCursor({ uuid, title });
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const { key } = event;
    if (isMoveKey(key)) {
      event.preventDefault();
      const inView = readingOrder();
      const next = nextPoint(xy, inView, index, key, { width, height });
      if (next >= 0) void moveTo(next);
      else setSaid(inView.length === 0 ? 'No point in view.' : 'No further point that way.');
    } else if ((key === '+' || key === '=') && index >= 0 && points.state[index]) {
      event.preventDefault();
      const state = points.state[index] ?? '';
      focusPoint.current = true;
      onZoom(state);
      setSaid(`Zoomed to ${state}.`);
    } else if (key === '-' && zoomed !== '') {
      event.preventDefault();
      focusPoint.current = true;
      onZoom('');
      setSaid('Zoomed out to all QR codes.');
    } else if (key === 'Escape' && cursor) {
      event.preventDefault();
      setCursor(null);
      layer.current?.focus();
    }
  };

  return (
    <>
      <div
        ref={layer}
        className="qr-map-keys"
        role="application"
        aria-roledescription="map"
        aria-label={`${label}: ${points.count.toLocaleString()} ${points.count === 1 ? 'point' : 'points'}${zoomed ? `, zoomed to ${zoomed}` : ''}`}
        aria-describedby={keysId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: an application (the map) takes the keyboard; keysId describes its keys
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        {cursor && shown && (
          <button
            key={`${cursor.uuid} ${zoomed}`}
            ref={(element) => {
              // A point's button is new for each point and view (so a screen reader says it): the focus follows it.
              if (element && focusPoint.current) element.focus();
              if (element) focusPoint.current = false;
            }}
            type="button"
            tabIndex={-1}
            className="qr-map-cursor"
            style={{ left: x, top: y }}
            aria-label={nameOf(cursor.title)}
            onClick={() => onOpen(cursor.uuid)}
          />
        )}
        {cursor && shown && (
          // Beside the ring, on the side with more room: which QR code it is, for the eyes (the button's name says it to screen readers).
          <p
            className="qr-map-point-label"
            aria-hidden="true"
            style={{ left: x, top: y }}
            data-side={x > width / 2 ? 'left' : 'right'}
            data-v={y < 70 ? 'below' : 'above'}
          >
            {cursor.title}
          </p>
        )}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </>
  );
}
