import { useLocation } from 'wouter';
import { QuickSearch } from '../../lib/ui';
import styles from './HeaderSearch.module.css';

/**
 * The header's quick search box (SPEC §2): Enter goes to the Discover search for the text,
 * a result opens the creator or the hashtag in place.
 */
export function HeaderSearch() {
  const [, navigate] = useLocation();
  return <QuickSearch className={styles.search} onSubmit={(q) => navigate(`/discover?q=${encodeURIComponent(q)}`)} onNavigate={(href) => navigate(href)} />;
}
