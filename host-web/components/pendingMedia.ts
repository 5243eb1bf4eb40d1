/**
 * Files chosen outside the new-post screen (the side navigation's add-post button, the
 * Timeline's quick post box, a drop on the Timeline) wait here for the editor that opens
 * next. A module variable, not the URL: a File cannot travel in an address.
 */
let pending: File[] | null = null;

export function handOverFiles(files: ArrayLike<File> | readonly File[]): void {
  const list = Array.from(files);
  pending = list.length > 0 ? list : null;
}

/** The files handed over, if any; the editor reads them once when it opens. */
export function handedOverFiles(): File[] | null {
  return pending;
}

/** Called when the editor closes, so a later visit to it starts empty. */
export function forgetHandedOverFiles(): void {
  pending = null;
}
