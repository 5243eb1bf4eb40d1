import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type RefObject } from 'react';

export interface WindowedRange {
  start: number;
  end: number;
  /** Space standing in for the rows above and below the rendered ones. */
  before: number;
  after: number;
}

/** How many rows away a focused row may be before it is let go. */
const MAX_PIN_DISTANCE = 20;

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Renders only the rows near the viewport (the page scrolls, not the list): rows are measured
 * as they render and the rest are stood in for by their measured or estimated heights, so a
 * feed of hundreds of posts keeps a few dozen elements in the page.
 */
export function useWindowedList(keys: readonly string[], container: RefObject<HTMLElement | null>, estimate: number, initialCount = 3, pinned: string | null = null) {
  const heights = useRef(new Map<string, number>());
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  const [visible, setVisible] = useState<{ top: number; bottom: number } | null>(null);

  const offsets = useMemo(() => {
    const result = new Array<number>(keys.length + 1);
    result[0] = 0;
    for (let i = 0; i < keys.length; i++) result[i + 1] = (result[i] as number) + (heights.current.get(keys[i] as string) ?? estimate);
    return result;
    // `version` stands for the measured heights, which live in a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keys, estimate, version]);

  const measureFrom = useCallback(() => {
    const element = container.current;
    if (!element || typeof window === 'undefined') return;
    const top = element.getBoundingClientRect().top;
    const viewport = window.innerHeight || 800;
    // One screen of rows above and below: fast scrolling does not outrun the rendering.
    const next = { top: -top - viewport, bottom: -top + 2 * viewport };
    setVisible((current) => (current && Math.abs(current.top - next.top) < 8 && Math.abs(current.bottom - next.bottom) < 8 ? current : next));
  }, [container]);

  useEffect(() => {
    if (typeof window === 'undefined') return;
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        measureFrom();
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll, { passive: true });
    measureFrom();
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [measureFrom]);

  useIsomorphicLayoutEffect(() => {
    measureFrom();
  }, [keys.length, measureFrom]);

  const observer = useMemo(() => {
    if (typeof ResizeObserver === 'undefined') return null;
    let frame = 0;
    const observer = new ResizeObserver((records) => {
      let changed = false;
      for (const record of records) {
        // A row that left the page (React 18 does not run a ref's cleanup, only calls it with null).
        if (!record.target.isConnected) {
          observer.unobserve(record.target);
          continue;
        }
        const key = (record.target as HTMLElement).dataset.rowKey;
        const height = record.borderBoxSize?.[0]?.blockSize ?? (record.target as HTMLElement).offsetHeight;
        if (key && height > 0 && heights.current.get(key) !== height) {
          heights.current.set(key, height);
          changed = true;
        }
      }
      if (changed && !frame) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          bump();
        });
      }
    });
    return observer;
  }, []);

  useEffect(() => () => observer?.disconnect(), [observer]);

  /** Attach to each rendered row (with `data-row-key`), so its real height replaces the estimate. */
  const measure = useCallback(
    (element: HTMLElement | null) => {
      if (!element || !observer) return;
      observer.observe(element);
      return () => observer.unobserve(element);
    },
    [observer],
  );

  const range = useMemo<WindowedRange>(() => {
    const total = offsets[keys.length] as number;
    if (!visible) {
      const end = Math.min(keys.length, initialCount);
      return { start: 0, end, before: 0, after: total - (offsets[end] as number) };
    }
    let start = 0;
    while (start < keys.length && (offsets[start + 1] as number) < visible.top) start++;
    let end = start;
    while (end < keys.length && (offsets[end] as number) < visible.bottom) end++;
    // Always at least one row, so an empty window never hides the whole list.
    if (end === start && start < keys.length) end = start + 1;
    // The row holding the keyboard focus stays rendered (unmounting it would drop the focus
    // to the page), unless the reader has scrolled far away from it.
    const pin = pinned === null ? -1 : keys.indexOf(pinned);
    if (pin >= 0 && pin >= start - MAX_PIN_DISTANCE && pin < end + MAX_PIN_DISTANCE) {
      start = Math.min(start, pin);
      end = Math.max(end, pin + 1);
    }
    return { start, end, before: offsets[start] as number, after: total - (offsets[end] as number) };
  }, [offsets, visible, keys, initialCount, pinned]);

  return { range, measure };
}
