import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { clampZoom, doubleTapZoom, isDoubleTap, isSwipeClose, pinchZoom } from './gestures';

interface Point {
  x: number;
  y: number;
}

/** Zoom, pan and the gestures of the full-screen viewer (SPEC §2, §9). */
export function useMediaViewer(count: number, startIndex: number, onClose: () => void) {
  const [index, setIndex] = useState(() => Math.min(Math.max(0, startIndex), Math.max(0, count - 1)));
  const [scale, setScale] = useState(1);
  const [offset, setOffset] = useState<Point>({ x: 0, y: 0 });
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<{ startScale: number; startDistance: number; start: Point; startOffset: Point; swiped: boolean } | null>(null);
  const lastTap = useRef<number | null>(null);

  const zoomTo = useCallback((next: number) => {
    const clamped = clampZoom(next);
    setScale(clamped);
    if (clamped <= 1) setOffset({ x: 0, y: 0 });
  }, []);

  const go = useCallback(
    (step: number) => {
      if (count < 2) return;
      setIndex((current) => (current + step + count) % count);
      setScale(1);
      setOffset({ x: 0, y: 0 });
    },
    [count],
  );

  function distance(): number {
    const [a, b] = Array.from(pointers.current.values());
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  }

  const onPointerDown = (event: PointerEvent) => {
    (event.currentTarget as Element).setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    gesture.current = { startScale: scale, startDistance: distance(), start: { x: event.clientX, y: event.clientY }, startOffset: offset, swiped: false };
    if (pointers.current.size === 1) {
      const now = event.timeStamp || Date.now();
      if (isDoubleTap(lastTap.current, now)) {
        zoomTo(doubleTapZoom(scale));
        lastTap.current = null;
      } else {
        lastTap.current = now;
      }
    }
  };

  const onPointerMove = (event: PointerEvent) => {
    if (!pointers.current.has(event.pointerId) || !gesture.current) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const g = gesture.current;
    if (pointers.current.size >= 2) {
      zoomTo(pinchZoom(g.startScale, g.startDistance, distance()));
      return;
    }
    const dx = event.clientX - g.start.x;
    const dy = event.clientY - g.start.y;
    if (scale > 1) setOffset({ x: g.startOffset.x + dx, y: g.startOffset.y + dy });
    else if (!g.swiped && isSwipeClose(dx, dy, scale)) g.swiped = true;
  };

  const onPointerUp = (event: PointerEvent) => {
    pointers.current.delete(event.pointerId);
    const g = gesture.current;
    if (pointers.current.size === 0) {
      gesture.current = null;
      if (g?.swiped) onClose();
    } else if (g) {
      // One finger lifted from a pinch: the other one continues from here.
      const [rest] = Array.from(pointers.current.values());
      if (rest) gesture.current = { startScale: scale, startDistance: 0, start: rest, startOffset: offset, swiped: false };
    }
  };

  const onWheel = (deltaY: number) => zoomTo(scale * (deltaY < 0 ? 1.1 : 1 / 1.1));

  const onKeyDown = (event: KeyboardEvent) => {
    switch (event.key) {
      case 'Escape':
        event.preventDefault();
        onClose();
        return;
      case '+':
      case '=':
        zoomTo(scale * 1.5);
        return;
      case '-':
        zoomTo(scale / 1.5);
        return;
      case '0':
        zoomTo(1);
        return;
      case 'ArrowRight':
        go(1);
        return;
      case 'ArrowLeft':
        go(-1);
        return;
    }
  };

  return { index, scale, offset, zoomTo, go, onPointerDown, onPointerMove, onPointerUp, onWheel, onKeyDown };
}
