import { useCallback, useEffect, useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../../lib/ui';
import styles from './Money.module.css';
import own from './Admin.module.css';

/** What a section's last action said: spoken politely on success, at once on failure. */
export interface AdminMessage {
  kind: 'success' | 'error';
  text: string;
}

export interface AdminList<T> {
  /** The rows, or null until the first answer. */
  list: T[] | null;
  setList: Dispatch<SetStateAction<T[] | null>>;
  /** Whether the last read failed. */
  failed: boolean;
}

/**
 * A list an administrator works through, read from `path` (with `query`, a constant) when the
 * section opens.
 */
export function useAdminList<T>(path: string, query?: Readonly<Record<string, string>>): AdminList<T> {
  const { client } = useFanstage();
  const [list, setList] = useState<T[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      setList(await client.get<T[]>(path, query));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [client, path, query]);

  useEffect(() => {
    void load();
  }, [load]);

  return { list, setList, failed };
}

export interface AdminSectionProps<T> {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  testId?: string;
  message: AdminMessage | null;
  failed: boolean;
  list: readonly T[] | null;
  emptyText: string;
  /** The list's rows, an `<li>` each. */
  children: (list: readonly T[]) => ReactNode;
}

/** One section of /admin: its heading, what its last action said, and its list once read. */
export function AdminSection<T>({ id, title, testId, message, failed, list, emptyText, children }: AdminSectionProps<T>) {
  const { t } = useTranslation();
  return (
    <section className={styles.card} aria-labelledby={id} data-testid={testId}>
      <h2 id={id} className={styles.subtitle}>
        {title}
      </h2>
      <div className={own.messages}>
        <div role="status" aria-live="polite">
          {message?.kind === 'success' ? <p className={styles.success}>{message.text}</p> : null}
        </div>
        <div role="alert">{message?.kind === 'error' ? <p className={styles.error}>{message.text}</p> : null}</div>
      </div>
      {failed ? (
        <p className={styles.error}>{t('errors.couldnt-get-info-from-server')}</p>
      ) : list === null ? (
        <p role="status">{t('admin.loading')}</p>
      ) : list.length === 0 ? (
        <p>{emptyText}</p>
      ) : (
        <ul className={styles.list}>{children(list)}</ul>
      )}
    </section>
  );
}
