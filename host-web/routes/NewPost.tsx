import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { PostEditor } from '../../lib/ui';
import { usePageTitle } from '../site';
import { forgetHandedOverFiles, handedOverFiles } from '../components/pendingMedia';
import { getPreviousLocation } from '../navigation';
import styles from './NewPost.module.css';

/**
 * `/new-post` (login; a visitor gets the login prompt instead, SPEC §5). A file picked with
 * the add-post button or dropped on the Timeline arrives with it and starts uploading at once.
 * A published post is then shown on the Timeline, a scheduled one among the scheduled posts.
 */
export default function NewPost() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  // Read once when the screen opens; later renders keep the same files.
  const [initialFiles] = useState(handedOverFiles);
  usePageTitle(t('sitePosts.newPost.title'));
  useEffect(() => forgetHandedOverFiles, []);

  return (
    <div className={styles.page}>
      <PostEditor
        headingLevel={1}
        {...(initialFiles ? { initialFiles } : {})}
        onCancel={() => {
          if (getPreviousLocation() !== null) window.history.back();
          else navigate('/timeline');
        }}
        onDone={(post) => {
          // Without the seller's right the price was dropped: the editor's warning says so
          // (SPEC §8, 15 s), so the screen stays for it to be read.
          if ('notASeller' in post && post.notASeller) return;
          navigate(post.startDate !== null && post.startDate > Date.now() ? '/feed/scheduled-posts' : '/timeline');
        }}
      />
    </div>
  );
}
