/** SPEC §9: pinch zoom between 0.5× and 4×, double tap 2× within 300 ms, swipe closes at 10 px. */
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 4;
export const DOUBLE_TAP_ZOOM = 2;
export const DOUBLE_TAP_MS = 300;
export const SWIPE_CLOSE_PX = 10;

export function clampZoom(scale: number): number {
  if (!Number.isFinite(scale)) return 1;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale));
}

/** The zoom while two fingers move: the start zoom times how far they spread. */
export function pinchZoom(startScale: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return clampZoom(startScale);
  return clampZoom(startScale * (distance / startDistance));
}

/** A second tap this soon after the first is a double tap. */
export function isDoubleTap(previousTapAt: number | null, now: number): boolean {
  return previousTapAt !== null && now - previousTapAt <= DOUBLE_TAP_MS;
}

/** Double tap: 2× from the normal size, back to 1× from any other. */
export function doubleTapZoom(scale: number): number {
  return scale === 1 ? DOUBLE_TAP_ZOOM : 1;
}

/**
 * A one-finger drag closes the viewer once it went 10 px mostly up or down, but only while
 * the picture is not zoomed in: zoomed in, the same drag pans.
 */
export function isSwipeClose(dx: number, dy: number, scale: number): boolean {
  return scale <= 1 && Math.abs(dy) >= SWIPE_CLOSE_PX && Math.abs(dy) > Math.abs(dx);
}
