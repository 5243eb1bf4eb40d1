export { MediaViewer } from './MediaViewer';
export type { MediaViewerProps } from './MediaViewer';
export { useMediaViewer } from './useMediaViewer';
export { clampZoom, pinchZoom, isDoubleTap, doubleTapZoom, isSwipeClose, MIN_ZOOM, MAX_ZOOM, DOUBLE_TAP_ZOOM, DOUBLE_TAP_MS, SWIPE_CLOSE_PX } from './gestures';
