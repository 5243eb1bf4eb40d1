import { useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { PostEditor } from '../../lib/ui';
import { usePageTitle } from '../site';
import { idOf } from '../components/routeIds';
import { getPreviousLocation } from '../navigation';
import NotFound from './NotFound';
import styles from './NewPost.module.css';

/** `/update-post/{postid}` (login): the caption and the media's price of an own post. */
export default function UpdatePost({ postid }: { postid: string }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const id = idOf(postid);
  usePageTitle(t('sitePosts.updatePost.title'));
  if (id === null) return <NotFound />;

  const back = () => {
    if (getPreviousLocation() !== null) window.history.back();
    else navigate(`/post/${id}`);
  };
  return (
    <div className={styles.page}>
      <PostEditor key={id} postId={id} headingLevel={1} onCancel={back} onDone={() => navigate(`/post/${id}`)} />
    </div>
  );
}
