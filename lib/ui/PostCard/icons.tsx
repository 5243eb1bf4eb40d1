/** The post card's action icons: decorative, the buttons carry the names. */
import styles from './PostCard.module.css';

const iconProps = { viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false, className: styles.icon } as const;

export function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <svg {...iconProps}>
      <path
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
        d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.2 3.4 4.5 7 4.5c2 0 3.4 1.1 5 3 1.6-1.9 3-3 5-3 3.6 0 5.5 3.7 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z"
      />
    </svg>
  );
}

export function CommentIcon() {
  return (
    <svg {...iconProps}>
      <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" d="M4 5h16v11H9l-5 4z" />
    </svg>
  );
}

export function GiftIcon() {
  return (
    <svg {...iconProps}>
      <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" d="M4 10h16v10H4zM3 7h18v3H3zM12 7v13M12 7c-1-3-5-4-5-1.5S12 7 12 7zm0 0c1-3 5-4 5-1.5S12 7 12 7z" />
    </svg>
  );
}

export function ChatIcon() {
  return (
    <svg {...iconProps}>
      <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" d="M12 4c4.7 0 8.5 3.1 8.5 7s-3.8 7-8.5 7c-1 0-2-.1-2.9-.4L4 20l1.4-4C4.2 14.6 3.5 12.9 3.5 11c0-3.9 3.8-7 8.5-7z" />
    </svg>
  );
}

export function ShareIcon() {
  return (
    <svg {...iconProps}>
      <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" d="M12 3v12M7 8l5-5 5 5M5 13v7h14v-7" />
    </svg>
  );
}
