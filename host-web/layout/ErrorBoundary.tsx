import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './ErrorBoundary.module.css';

interface Props {
  /** A new key (the location) clears the error, so navigating away recovers. */
  resetKey: string;
  children: ReactNode;
}

interface State {
  error: unknown;
  key: string;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('The app failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.error ? <LoadError /> : this.props.children;
  }
}

function LoadError() {
  const { t } = useTranslation();
  return (
    <div className={styles.box} role="alert">
      <p className={styles.text}>{t('app.loadError')}</p>
      <button type="button" className={styles.button} onClick={() => window.location.reload()}>
        {t('app.retry')}
      </button>
    </div>
  );
}
