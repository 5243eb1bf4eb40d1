import { useRef, useState, type DragEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { Feed, useFanstage } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { TopUsers } from '../components/TopUsers';
import { MediaPickerButton } from '../components/MediaPickerButton';
import { handOverFiles } from '../components/pendingMedia';
import { effectiveGender, genderFilter } from '../components/genderFilter';
import { useInAppLinks } from '../useInAppLinks';
import { usePostMoney } from '../overlays/PostMoney';
import styles from './Timeline.module.css';

function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * `/timeline` (login): the people strip, the quick post box of creators (gender 2 profiles,
 * SPEC §6), and the private timeline, which continues with public posts when it is short.
 * A photo or video dropped anywhere on the screen opens the new-post editor with it.
 */
export default function Timeline() {
  useSignals();
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const [, navigate] = useLocation();
  const { loggedIn } = useSite();
  const onClick = useInAppLinks();
  const money = usePostMoney();
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed; counting them tells when the drag left.
  const depth = useRef(0);
  const account = fanstage.session.account.value;
  // The header's gender filter applies to the public posts that continue a short timeline.
  const gender = effectiveGender(genderFilter.value, loggedIn);
  usePageTitle(t('sitePosts.timeline.title'), { inHeader: false });

  const dragHandlers = {
    onDragEnter: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth.current += 1;
      setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      if (event.dataTransfer.files.length === 0) return;
      handOverFiles(event.dataTransfer.files);
      navigate('/new-post');
    },
  };

  return (
    <div className={styles.timeline} data-testid="timeline" {...dragHandlers}>
      <h1 className="visually-hidden">{t('sitePosts.timeline.title')}</h1>
      <TopUsers />
      {account?.gender === 2 ? (
        <section className={styles.quickPost} aria-label={t('sitePosts.quickPost.title')} data-testid="quick-post">
          <Link href="/new-post" className={styles.quickPrompt}>
            {t('sitePosts.quickPost.prompt')}
          </Link>
          <MediaPickerButton className={styles.quickMedia} label={t('sitePosts.addPost.choose')}>
            <svg width="22" height="22" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
              <path d="M21 19V5c0-1.1-.9-2-2-2H5c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h14c1.1 0 2-.9 2-2zM8.5 13.5l2.5 3.01L14.5 12l4.5 6H5l3.5-4.5z" />
            </svg>
            <span>{t('sitePosts.quickPost.choose')}</span>
          </MediaPickerButton>
        </section>
      ) : null}
      <div onClick={onClick}>
        {/* A reload shows the screen before the session is back; the private list waits for it. */}
        {loggedIn ? <Feed key={gender} type="private" gender={gender} whoToFollow label={t('sitePosts.timeline.title')} {...money} /> : null}
      </div>
      {dragging ? (
        <div className={styles.dropZone} aria-hidden="true">
          <p>{t('sitePosts.drop.hint')}</p>
        </div>
      ) : null}
    </div>
  );
}
