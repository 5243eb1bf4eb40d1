import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { OriginProof } from '../../lib/contract/badge';
import { ORIGIN_PROOF_MAX_FAILURES } from '../../lib/contract/constants';
import { isSdkError, siteProofApi } from '../../lib/sdk';
import { useFanstage } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { LoginNeeded } from './Settings';
import styles from './Money.module.css';
import own from './SettingsWidgetSites.module.css';

/** The well-known file's path on a site (lib/contract/badge.ts proofFilePath; a TypeBox module the site takes types from only). */
const proofFilePath = '/.well-known/fanstage-verification.txt';

type Message = { kind: 'success' | 'error'; text: string };

/**
 * `/settings/widget-sites` (sellers): the sites a creator lists for her widgets, each with its
 * proof of ownership (docs/embedding.md, "Proving a site"): add a site, publish the token as
 * the well-known file or a meta tag, and ask the platform to check it. Only proven sites show
 * "listed by" to fans in the sign-in popup.
 */
export default function SettingsWidgetSites() {
  const { loggedIn } = useSite();
  return <AfterSessionCheck>{loggedIn ? <WidgetSites /> : <LoginNeeded />}</AfterSessionCheck>;
}

function WidgetSites() {
  useSignals();
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const api = useMemo(() => siteProofApi(fanstage.client), [fanstage]);
  const id = useId();
  const [sites, setSites] = useState<OriginProof[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [address, setAddress] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [formMessage, setFormMessage] = useState<Message | null>(null);
  const [messages, setMessages] = useState<Record<string, Message>>({});
  usePageTitle(t('widgetSites.title'));

  const load = useCallback(() => {
    setFailed(false);
    return api.list().then(setSites, () => setFailed(true));
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);

  const problemText = (error: unknown) => {
    if (isSdkError(error) && error.code === 'origin-proof-failed') {
      const reason = (error.body as { reason?: string } | undefined)?.reason ?? 'token-missing';
      return t(`widgetSites.problems.${reason}`, { defaultValue: t('errors.origin-proof-failed') });
    }
    const code = isSdkError(error) ? error.code : 'internal-error';
    return t(`errors.${code}`, { defaultValue: t('errors.internal-error') });
  };
  const listed = (sites ?? []).filter((site) => site.listed).map((site) => site.origin);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const text = address.trim();
    if (text === '') return;
    setBusy('add');
    setFormMessage(null);
    try {
      const account = await fanstage.account.updateMe({ embedOrigins: [...listed, text] });
      fanstage.session.setAccount(account);
      const added = account.embedOrigins.find((origin) => !listed.includes(origin));
      // The token at once: publishing it is the next step.
      if (added !== undefined) await api.token(added);
      setAddress('');
      setFormMessage({ kind: 'success', text: t('widgetSites.added', { origin: added ?? text }) });
      await load();
    } catch (error) {
      setFormMessage({ kind: 'error', text: isSdkError(error) && error.code === 'invalid-request' ? t('widgetSites.notAnOrigin') : problemText(error) });
    } finally {
      setBusy(null);
    }
  };

  const remove = async (origin: string) => {
    setBusy(origin);
    try {
      const account = await fanstage.account.updateMe({ embedOrigins: listed.filter((o) => o !== origin) });
      fanstage.session.setAccount(account);
      setFormMessage({ kind: 'success', text: t('widgetSites.removed', { origin }) });
      await load();
    } catch (error) {
      setMessages((all) => ({ ...all, [origin]: { kind: 'error', text: problemText(error) } }));
    } finally {
      setBusy(null);
    }
  };

  const token = async (origin: string) => {
    setBusy(origin);
    try {
      await api.token(origin);
      await load();
    } catch (error) {
      setMessages((all) => ({ ...all, [origin]: { kind: 'error', text: problemText(error) } }));
    } finally {
      setBusy(null);
    }
  };

  const check = async (origin: string) => {
    setBusy(origin);
    setMessages(({ [origin]: _old, ...rest }) => rest);
    try {
      const proof = await api.prove(origin);
      setSites((all) => (all ?? []).map((site) => (site.origin === origin ? proof : site)));
      setMessages((all) => ({ ...all, [origin]: { kind: 'success', text: t('widgetSites.provenNow', { origin }) } }));
    } catch (error) {
      setMessages((all) => ({ ...all, [origin]: { kind: 'error', text: problemText(error) } }));
      await load();
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className={styles.screen} aria-labelledby="widget-sites-title">
      <h1 id="widget-sites-title" className={styles.title}>
        {t('widgetSites.title')}
      </h1>
      <p className={styles.muted}>{t('widgetSites.intro')}</p>

      <form className={`${styles.card} ${own.addForm}`} onSubmit={(event) => void add(event)}>
        <label className={styles.field} htmlFor={`${id}-origin`}>
          {t('widgetSites.address')}
          <input
            id={`${id}-origin`}
            className={`${styles.input} ${own.wide}`}
            type="url"
            inputMode="url"
            required
            maxLength={300}
            placeholder="https://my-blog.example"
            value={address}
            aria-describedby={`${id}-origin-hint`}
            onChange={(event) => setAddress(event.target.value)}
          />
        </label>
        <p id={`${id}-origin-hint`} className={styles.muted}>
          {t('widgetSites.addressHint')}
        </p>
        <div className={styles.actions}>
          <button type="submit" className={styles.primary} disabled={busy === 'add'}>
            {t('widgetSites.add')}
          </button>
        </div>
        <p role="status" aria-live="polite" className={formMessage ? styles[formMessage.kind] : undefined}>
          {formMessage?.text ?? ''}
        </p>
      </form>

      {failed ? (
        <p role="alert" className={styles.error}>
          {t('widgetSites.loadFailed')}{' '}
          <button type="button" className={styles.secondary} onClick={() => void load()}>
            {t('settings.sites.retry')}
          </button>
        </p>
      ) : sites === null ? (
        <p role="status">{t('app.loading')}</p>
      ) : sites.length === 0 ? (
        <p>{t('widgetSites.none')}</p>
      ) : (
        <ul className={own.list} aria-label={t('widgetSites.listLabel')}>
          {sites.map((site) => (
            <SiteProof
              key={site.origin}
              site={site}
              busy={busy === site.origin}
              message={messages[site.origin] ?? null}
              onCheck={() => void check(site.origin)}
              onToken={() => void token(site.origin)}
              onRemove={() => void remove(site.origin)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function SiteProof({
  site,
  busy,
  message,
  onCheck,
  onToken,
  onRemove,
}: {
  site: OriginProof;
  busy: boolean;
  message: Message | null;
  onCheck: () => void;
  onToken: () => void;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const withdrawn = !site.proven && site.failures >= ORIGIN_PROOF_MAX_FAILURES;
  const state = site.proven ? 'proven' : withdrawn ? 'withdrawn' : 'notYet';
  const when = (ms: number) => new Date(ms).toLocaleString(i18n.language, { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' });
  const metaTag = site.token === null ? '' : `<meta name="fanstage-verification" content="${site.token}">`;

  return (
    <li className={`${styles.card} ${own.site}`} data-testid="widget-site" data-origin={site.origin}>
      <div className={own.head}>
        <h2 className={`${styles.subtitle} ${own.origin}`}>{site.origin}</h2>
        <span className={`${own.state} ${own[state]}`} data-testid="widget-site-state">
          {t(`widgetSites.state.${state}`)}
        </span>
      </div>
      <p className={styles.muted}>
        {site.proven && site.provenAt !== null
          ? t('widgetSites.provenSince', { date: when(site.provenAt), method: t(`widgetSites.method.${site.method ?? 'file'}`, { defaultValue: site.method ?? '' }) })
          : withdrawn
            ? t('widgetSites.withdrawnText', { count: site.failures })
            : !site.listed
              ? t('widgetSites.notListed')
              : t('widgetSites.notYetText')}
        {site.checkedAt !== null ? ` ${t('widgetSites.checkedAt', { date: when(site.checkedAt) })}` : ''}
      </p>
      {site.listed && site.token !== null ? (
        <div className={own.publish}>
          <p>{t('widgetSites.publish')}</p>
          <ol className={own.ways}>
            <li>
              <label className={styles.field} htmlFor={`${id}-file`}>
                {t('widgetSites.fileWay', { url: `${site.origin}${proofFilePath}` })}
                <input id={`${id}-file`} className={`${styles.input} ${own.code}`} readOnly value={site.token} onFocus={(event) => event.currentTarget.select()} />
              </label>
            </li>
            <li>
              <label className={styles.field} htmlFor={`${id}-meta`}>
                {t('widgetSites.metaWay')}
                <input id={`${id}-meta`} className={`${styles.input} ${own.code}`} readOnly value={metaTag} onFocus={(event) => event.currentTarget.select()} />
              </label>
            </li>
          </ol>
        </div>
      ) : null}
      <div className={styles.actions}>
        {site.listed && site.token === null ? (
          <button type="button" className={styles.primary} disabled={busy} onClick={onToken}>
            {t('widgetSites.getToken')}
          </button>
        ) : null}
        {site.listed && site.token !== null ? (
          <button type="button" className={styles.primary} disabled={busy} onClick={onCheck} aria-label={t('widgetSites.checkLabel', { origin: site.origin })}>
            {busy ? t('widgetSites.checking') : t('widgetSites.check')}
          </button>
        ) : null}
        {site.listed ? (
          <button type="button" className={styles.secondary} disabled={busy} onClick={onRemove} aria-label={t('widgetSites.removeLabel', { origin: site.origin })}>
            {t('widgetSites.remove')}
          </button>
        ) : null}
      </div>
      <p role="status" aria-live="polite" className={message ? styles[message.kind] : own.empty}>
        {message?.text ?? ''}
      </p>
    </li>
  );
}
