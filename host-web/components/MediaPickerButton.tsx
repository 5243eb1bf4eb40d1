import { useRef, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { MEDIA_ACCEPT } from '../../lib/sdk';
import { handOverFiles } from './pendingMedia';

/**
 * A button opening the file picker for a new post (SPEC §5: image, video, mp4, m4v, heic);
 * the chosen file goes to /new-post, whose editor checks and uploads it (SPEC §4).
 */
export function MediaPickerButton({ className, label, children }: { className?: string; label: string; children: ReactNode }) {
  const input = useRef<HTMLInputElement>(null);
  const [, navigate] = useLocation();
  return (
    <>
      <button type="button" className={className} onClick={() => input.current?.click()}>
        {children}
      </button>
      <input
        ref={input}
        type="file"
        accept={MEDIA_ACCEPT}
        hidden
        aria-label={label}
        onChange={(event) => {
          const files = event.target.files;
          if (files && files.length > 0) {
            handOverFiles(files);
            navigate('/new-post');
          }
          event.target.value = '';
        }}
      />
    </>
  );
}
