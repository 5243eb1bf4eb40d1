import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { Dialog } from '../dialog/Dialog';
import { TopUpDialog } from '../SubscriptionPurchase/TopUpDialog';
import { UnlockMediaPopup } from '../UnlockMediaPopup/UnlockMediaPopup';
import { VerifyEmailNotice } from '../VerifyEmailNotice/VerifyEmailNotice';
import { useChatConversation, type ChatCallView, type ChatConversationState, type ChatMediaView, type ChatMessageView, type UseChatConversationOptions } from './useChatConversation';
import styles from './ChatConversation.module.css';

export interface ChatConversationProps extends UseChatConversationOptions {
  /** Shows the partner's name and avatar on top (default true); a page with its own title may leave it out. */
  showHeader?: boolean;
  /** Level of the partner's name heading (default 2). */
  headingLevel?: 2 | 3;
  /** Next to the partner's name: e.g. the chat price badge. */
  headerExtra?: ReactNode;
  /** Under the messages: the composer. */
  children?: ReactNode;
  /** Where the partner's name leads, e.g. their profile. */
  profileHref?: string;
  /** The report form for one of the partner's messages (SPEC §2 /abuse-form); none shows no Report action. */
  reportHref?: (messageId: number) => string;
  /** How a top-up for a refused message opens the card page (popup by default). */
  paymentMode?: 'popup' | 'redirect';
  className?: string;
}

/** One conversation (SPEC §2 ChatOpened): the messages, newest at the bottom, and what goes with them. */
export function ChatConversation({ showHeader, headingLevel, headerExtra, children, profileHref, reportHref, paymentMode, className, ...options }: ChatConversationProps) {
  const state = useChatConversation(options);
  return (
    <ChatConversationView
      {...state}
      {...(showHeader !== undefined ? { showHeader } : {})}
      {...(headingLevel ? { headingLevel } : {})}
      headerExtra={headerExtra}
      {...(profileHref ? { profileHref } : {})}
      {...(reportHref ? { reportHref } : {})}
      {...(paymentMode ? { paymentMode } : {})}
      {...(className ? { className } : {})}
    >
      {children}
    </ChatConversationView>
  );
}

type ViewProps = ChatConversationState & Omit<ChatConversationProps, keyof UseChatConversationOptions>;

/** Pixels from the bottom within which a new message keeps the view pinned to the newest. */
const PINNED_PX = 96;

export function ChatConversationView(props: ViewProps) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const scroller = useRef<HTMLDivElement>(null);
  const layout = useRef<{ firstKey: string | null; lastKey: string | null; fromBottom: number }>({ firstKey: null, lastKey: null, fromBottom: 0 });
  const Heading = props.headingLevel === 3 ? 'h3' : 'h2';
  const firstKey = props.rows[0]?.key ?? null;
  const lastRow = props.rows.at(-1);
  const lastKey = lastRow?.key ?? null;
  const lastMine = lastRow?.kind === 'message' && lastRow.message.mine;

  // Newest at the bottom: a new message keeps the view there (unless the reader scrolled up to
  // read older ones, and it is not their own); older pages load above without moving the view.
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const before = layout.current;
    if (before.firstKey !== null && firstKey !== before.firstKey && lastKey === before.lastKey) {
      box.scrollTop = box.scrollHeight - box.clientHeight - before.fromBottom;
    } else if (lastKey !== before.lastKey && (before.fromBottom <= PINNED_PX || lastMine || before.lastKey === null)) {
      box.scrollTop = box.scrollHeight;
    }
    layout.current = { firstKey, lastKey, fromBottom: box.scrollHeight - box.clientHeight - box.scrollTop };
  }, [firstKey, lastKey, lastMine]);

  function onScroll() {
    const box = scroller.current;
    if (box) layout.current = { ...layout.current, fromBottom: box.scrollHeight - box.clientHeight - box.scrollTop };
  }

  return (
    <section className={['fs-root', styles.root, props.className].filter(Boolean).join(' ')} aria-labelledby={titleId} lang={lang} data-testid="chat-conversation">
      {props.showHeader === false ? (
        // The page shows the partner's name itself: the heading stays for screen readers, and
        // what the partner is doing still shows.
        <div className={styles.bare}>
          <Heading id={titleId} className={styles.visuallyHidden}>
            {props.name || t('chat.title')}
          </Heading>
          <p className={styles.activity} aria-live="polite">
            {props.activityText}
          </p>
        </div>
      ) : (
        <header className={styles.head}>
          {props.avatar ? (
            <img className={styles.avatar} src={props.avatar} alt="" width={40} height={40} />
          ) : (
            <span className={styles.avatar} aria-hidden="true">
              {props.initial}
            </span>
          )}
          <div className={styles.who}>
            <Heading id={titleId} className={styles.name}>
              {props.profileHref && props.name ? <a href={props.profileHref}>{props.name}</a> : props.name || t('chat.title')}
            </Heading>
            <p className={styles.activity} aria-live="polite">
              {props.activityText}
            </p>
          </div>
          {props.headerExtra ? <div className={styles.extra}>{props.headerExtra}</div> : null}
        </header>
      )}
      {props.connection.text ? (
        <p className={styles.connection} role="status">
          {props.connection.text}
          {props.connection.failed ? (
            <button type="button" className={styles.linkButton} onClick={props.connection.retry}>
              {t('chat.reconnect')}
            </button>
          ) : null}
        </p>
      ) : null}
      <div ref={scroller} className={styles.scroller} role="region" aria-label={t('chat.messagesWith', { name: props.name })} tabIndex={0} onScroll={onScroll} aria-busy={props.loading || undefined}>
        {props.canLoadOlder ? (
          <button type="button" className={styles.older} onClick={props.loadOlder}>
            {t('chat.loadOlder')}
          </button>
        ) : null}
        <p className={props.statusText ? styles.status : styles.visuallyHidden} role="status">
          {props.statusText}
        </p>
        {props.errorText ? (
          <div className={styles.error} role="alert">
            <p>{props.errorText}</p>
            <button type="button" className={styles.linkButton} onClick={props.retry}>
              {t('chat.retry')}
            </button>
          </div>
        ) : null}
        <ol className={styles.list}>
          {props.rows.map((row) =>
            row.kind === 'gap' ? (
              <li key={row.key} className={styles.gap}>
                <time dateTime={row.dateTime}>{row.label}</time>
              </li>
            ) : row.kind === 'call' ? (
              <CallRow key={row.key} call={row.call} />
            ) : (
              <MessageRow key={row.key} message={row.message} state={props} {...(props.reportHref ? { reportHref: props.reportHref } : {})} />
            ),
          )}
        </ol>
      </div>
      {/* The newest message from the partner, read out once as it arrives. */}
      <div className={styles.visuallyHidden} aria-live="polite" aria-atomic="true">
        {props.announcement}
      </div>
      {props.children}
      {props.prompt?.kind === 'topUp' ? <TopUpDialog done={props.promptDone} mode={props.paymentMode ?? 'popup'} /> : null}
      {props.prompt?.kind === 'verifyEmail' ? <VerifyEmailDialog onClose={() => props.promptDone(false)} /> : null}
      {props.unlock ? <UnlockMediaPopup source={props.unlock} onClose={props.closeUnlock} /> : null}
    </section>
  );
}

function VerifyEmailDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('chat.verifyTitle')} closeLabel={t('chat.close')} onClose={onClose}>
      <VerifyEmailNotice headingLevel={3} />
    </Dialog>
  );
}

function MessageRow({ message, state, reportHref }: { message: ChatMessageView; state: ChatConversationState; reportHref?: (messageId: number) => string }) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  const pickerId = useId();
  const pickerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (picking) pickerRef.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [picking]);

  return (
    <li className={message.mine ? `${styles.message} ${styles.mine}` : styles.message} data-testid="chat-message" data-state={message.state} data-mine={message.mine || undefined}>
      <div className={styles.bubble} data-failed={message.failure ? true : undefined}>
        <span className={styles.visuallyHidden}>{message.mine ? t('chat.youWrote') : t('chat.theyWrote', { name: state.name })}</span>
        {message.media ? <MediaBlock media={message.media} onUnlock={() => state.openUnlock(message.key)} /> : null}
        {message.gift ? (
          <p className={styles.gift}>
            {message.gift.picture ? <img src={message.gift.picture} alt="" width={48} height={48} /> : null}
            <span>{message.mine ? t('chat.gift.sent', { gift: message.gift.name }) : t('chat.gift.got', { gift: message.gift.name })}</span>
          </p>
        ) : null}
        {message.text ? <p className={styles.text}>{message.text}</p> : null}
        {message.suspected ? <p className={styles.suspected}>{t('chat.suspected')}</p> : null}
        <p className={styles.meta}>
          <time dateTime={message.dateTime}>{message.time}</time>
          {message.paid ? <span>{t('chat.paid', { price: message.paid })}</span> : null}
          {message.mine ? <StateIcon state={message.state} label={message.stateLabel} /> : null}
          {!message.mine && message.id !== null && reportHref ? (
            <a className={styles.report} href={reportHref(message.id)} aria-label={t('chat.reportOf', { name: state.name })}>
              {t('chat.report')}
            </a>
          ) : null}
        </p>
      </div>
      {message.reactions.length > 0 ? (
        <ul className={styles.reactions}>
          {message.reactions.map((r, index) => (
            <li key={index}>
              <span role="img" aria-label={r.label} title={r.label}>
                {r.reaction.symbol}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {message.canReact && message.id !== null ? (
        <div className={styles.react}>
          <button type="button" className={styles.reactButton} aria-expanded={picking} aria-controls={pickerId} onClick={() => setPicking((open) => !open)}>
            <span aria-hidden="true">☺</span>
            <span className={styles.visuallyHidden}>{t('chat.react')}</span>
          </button>
          {picking ? (
            <div
              id={pickerId}
              ref={pickerRef}
              className={styles.picker}
              role="group"
              aria-label={t('chat.reactions')}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setPicking(false);
              }}
            >
              {state.reactions.map((reaction) => {
                const pressed = message.myReactionId === reaction.id;
                return (
                  <button
                    key={reaction.id}
                    type="button"
                    className={styles.reaction}
                    aria-pressed={pressed}
                    aria-label={state.reactionName(reaction)}
                    title={state.reactionName(reaction)}
                    onClick={() => {
                      state.react(message.id as number, pressed ? null : reaction.id);
                      setPicking(false);
                    }}
                  >
                    {reaction.symbol}
                  </button>
                );
              })}
            </div>
          ) : null}
        </div>
      ) : null}
      {message.failure ? (
        <div className={styles.failure} role="alert">
          <p>{message.failureText}</p>
          <div className={styles.actions}>
            {message.acceptLabel ? (
              <button type="button" className={styles.primary} onClick={() => state.acceptPrice(message.key)}>
                {message.acceptLabel}
              </button>
            ) : null}
            {message.failure === 'no_credit' ? (
              <button type="button" className={styles.primary} aria-haspopup="dialog" onClick={() => state.buyCredits(message.key)}>
                {t('chat.buyCredits')}
              </button>
            ) : null}
            {message.failure === 'waiting_for_email' ? (
              <button type="button" className={styles.primary} aria-haspopup="dialog" onClick={() => state.verifyEmail(message.key)}>
                {t('chat.verifyEmail')}
              </button>
            ) : null}
            {message.failure !== 'not_delivered' ? (
              <button type="button" className={styles.secondary} onClick={() => state.resend(message.key)}>
                {t('chat.resend')}
              </button>
            ) : null}
            <button type="button" className={styles.secondary} onClick={() => state.discard(message.key)}>
              {t('chat.discard')}
            </button>
          </div>
        </div>
      ) : null}
    </li>
  );
}

/** A call entry: its text says everything; the icon only repeats it for the eye. */
function CallRow({ call }: { call: ChatCallView }) {
  const paths: Record<ChatCallView['tone'], string> = {
    // A video camera.
    ended: 'M3 6.5A1.5 1.5 0 0 1 4.5 5h10A1.5 1.5 0 0 1 16 6.5v3.2l4.4-2.9A1 1 0 0 1 22 7.6v8.8a1 1 0 0 1-1.6.8L16 14.3v3.2a1.5 1.5 0 0 1-1.5 1.5h-10A1.5 1.5 0 0 1 3 17.5Z',
    // A video camera with an arrow turned away: nobody answered.
    missed: 'M3 6.5A1.5 1.5 0 0 1 4.5 5h10A1.5 1.5 0 0 1 16 6.5v3.2l4.4-2.9A1 1 0 0 1 22 7.6v8.8a1 1 0 0 1-1.6.8L16 14.3v3.2a1.5 1.5 0 0 1-1.5 1.5h-10A1.5 1.5 0 0 1 3 17.5ZM6 9.4 7.4 8l2.1 2.1L11.6 8 13 9.4l-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1L6 13.6l2.1-2.1Z',
    other: 'M3 6.5A1.5 1.5 0 0 1 4.5 5h10A1.5 1.5 0 0 1 16 6.5v3.2l4.4-2.9A1 1 0 0 1 22 7.6v8.8a1 1 0 0 1-1.6.8L16 14.3v3.2a1.5 1.5 0 0 1-1.5 1.5h-10A1.5 1.5 0 0 1 3 17.5ZM6 10.5h7v2H6Z',
  };
  return (
    <li className={styles.call} data-testid="chat-call" data-tone={call.tone}>
      <svg className={styles.callIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path fill="currentColor" fillRule="evenodd" d={paths[call.tone]} />
      </svg>
      <span className={styles.callText}>{call.text}</span>
      <time className={styles.callTime} dateTime={call.dateTime}>
        {call.time}
      </time>
    </li>
  );
}

function StateIcon({ state, label }: { state: ChatMessageView['state']; label: string }) {
  const paths: Record<ChatMessageView['state'], string> = {
    sending: 'M12 4a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm0 2a6 6 0 1 1 0 12 6 6 0 0 1 0-12Zm-1 2v5l4 2 .8-1.5-2.8-1.4V8Z',
    sent: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4Z',
    read: 'M1.4 13.4 7 19l1.4-1.4L2.8 12Zm20.2-7.8L11 16.2 6.8 12l-1.4 1.4L11 19 23 7ZM17.6 7l-1.4-1.4-5.5 5.5 1.4 1.4Z',
    failed: 'M12 3 1 21h22Zm1 14h-2v-2h2Zm0-4h-2V9h2Z',
  };
  return (
    <svg className={styles.state} data-state={state} viewBox="0 0 24 24" role="img" aria-label={label} focusable="false">
      <title>{label}</title>
      <path fill="currentColor" d={paths[state]} />
    </svg>
  );
}

function MediaBlock({ media, onUnlock }: { media: ChatMediaView; onUnlock: () => void }) {
  const { t } = useTranslation();
  const style = { aspectRatio: String(Math.max(media.aspectRatio, 0.8)), backgroundColor: media.color ?? undefined } as CSSProperties;
  if (media.kind === 'voice') {
    return media.locked ? (
      <div className={styles.voice}>
        <span>{media.label}</span>
        <button type="button" className={styles.primary} aria-haspopup="dialog" onClick={onUnlock}>
          {t('chat.unlockFor', { price: media.price })}
        </button>
      </div>
    ) : (
      <audio className={styles.audio} src={media.src} controls preload="metadata" aria-label={media.label} />
    );
  }
  return (
    <div className={styles.media} style={style}>
      {media.kind === 'video' && !media.locked ? (
        <video src={media.src} poster={media.poster ?? undefined} controls playsInline preload="metadata" aria-label={media.label} />
      ) : (
        <img className={media.locked ? styles.blurred : undefined} src={media.kind === 'video' ? (media.poster ?? media.src) : media.src} alt={media.label} loading="lazy" />
      )}
      {media.locked ? (
        <button type="button" className={styles.unlock} aria-haspopup="dialog" onClick={onUnlock}>
          {t('chat.unlockFor', { price: media.price })}
        </button>
      ) : null}
      {media.duration ? <span className={styles.duration}>{media.duration}</span> : null}
    </div>
  );
}
