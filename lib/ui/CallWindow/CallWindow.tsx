import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { GiftPicker } from '../GiftPicker/GiftPicker';
import { WalletTopUp } from '../WalletTopUp/WalletTopUp';
import type { Gift } from '../../sdk';
import { useCallWindow, type CallWindowState, type UseCallWindowOptions } from './useCallWindow';
import styles from './CallWindow.module.css';

export interface CallWindowProps extends UseCallWindowOptions {
  /** The window's heading level (default 2). */
  headingLevel?: 1 | 2 | 3;
  className?: string;
}

/**
 * The video call (SPEC §2 /videocall/{id}): the other side large, the viewer small, the timer,
 * the cost (fan) or earnings (creator) so far, the time-left warning with a top-up, mute,
 * camera off, hang-up, a gift and a chat line; after the end, why and what it came to.
 */
export function CallWindow({ headingLevel, className, ...options }: CallWindowProps) {
  const state = useCallWindow(options);
  return <CallWindowView {...state} {...(headingLevel ? { headingLevel } : {})} {...(className ? { className } : {})} />;
}

function Video({ stream, muted, label, className, testId }: { stream: MediaStream | null; muted: boolean; label: string; className?: string | undefined; testId: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    // React does not keep `muted` as a property; a local echo would otherwise play.
    video.muted = muted;
    if (video.srcObject !== stream) video.srcObject = stream;
  }, [stream, muted]);
  return <video ref={ref} className={className} autoPlay playsInline muted={muted} aria-label={label} data-testid={testId} />;
}

function ChatLine({ onSay }: { onSay: (text: string) => boolean }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const inputId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (onSay(text)) setText('');
  };
  return (
    <form className={styles.chatForm} onSubmit={submit}>
      <label htmlFor={inputId} className={styles.visuallyHidden}>
        {t('calls.window.chatPlaceholder')}
      </label>
      <input id={inputId} className={styles.chatInput} value={text} maxLength={1000} placeholder={t('calls.window.chatPlaceholder')} onChange={(event) => setText(event.target.value)} autoComplete="off" />
      <button type="submit" className={styles.secondary}>
        {t('calls.window.send')}
      </button>
    </form>
  );
}

export function CallWindowView(props: CallWindowState & { headingLevel?: 1 | 2 | 3; className?: string }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const Heading = `h${props.headingLevel ?? 2}` as 'h2';
  const lang = i18n.resolvedLanguage ?? i18n.language;
  if (props.hidden) return null;

  const active = props.phase === 'calling' || props.phase === 'connecting' || props.phase === 'live';
  const ended = props.phase === 'ended' || (props.phase === 'idle' && props.record !== null);
  const classes = ['fs-root', styles.root, props.className].filter(Boolean).join(' ');

  if (props.phase === 'idle' && props.record === null) {
    return (
      <section className={classes} lang={lang} aria-labelledby={titleId}>
        <Heading id={titleId} className={styles.title}>
          {props.loading ? t('calls.window.loading') : t('calls.window.notHere')}
        </Heading>
        {props.loading ? null : (
          <button type="button" className={styles.secondary} onClick={props.close}>
            {t('calls.window.back')}
          </button>
        )}
      </section>
    );
  }

  return (
    <section className={classes} lang={lang} aria-labelledby={titleId} data-phase={props.phase} data-testid="call-window">
      <div className={styles.stage}>
        {props.remoteStream && !ended ? (
          <Video stream={props.remoteStream} muted={false} label={t('calls.window.remoteVideo', { name: props.name })} className={styles.remote} testId="call-remote-video" />
        ) : (
          <div className={styles.placeholder} aria-hidden="true">
            {props.avatar ? <img className={styles.avatar} src={props.avatar} alt="" width={120} height={120} /> : <span className={styles.avatar}>{props.initial}</span>}
          </div>
        )}
        {active && props.remoteStream && (props.peerCameraOff || props.peerMuted) ? (
          <p className={styles.peerState}>{[props.peerCameraOff ? t('calls.window.peerCameraOff', { name: props.name }) : null, props.peerMuted ? t('calls.window.peerMuted', { name: props.name }) : null].filter(Boolean).join(' · ')}</p>
        ) : null}
        {active && props.localStream ? (
          <Video stream={props.localStream} muted label={t('calls.window.localVideo')} className={`${styles.local} ${props.cameraOn ? '' : styles.localOff}`} testId="call-local-video" />
        ) : null}
      </div>

      <div className={styles.bar}>
        <div className={styles.who}>
          <Heading id={titleId} className={styles.title} title={props.statusText}>
            {props.statusText}
          </Heading>
          {props.phase === 'live' || props.phase === 'connecting' ? (
            <span className={styles.timer} role="timer" aria-label={t('calls.window.timer')} aria-live="off">
              {props.timer}
            </span>
          ) : null}
        </div>
        {active || ended ? (
          <p className={styles.meter}>
            {props.phase === 'live' || props.phase === 'connecting' ? <span data-testid="call-meter">{props.meterText}</span> : null}
            <span className={styles.price}>{props.priceText}</span>
            {props.timeLeftText ? <span className={styles.timeLeft}>{props.timeLeftText}</span> : null}
          </p>
        ) : null}
      </div>

      {props.lowCreditText ? (
        <div className={styles.warning} role="alert">
          <span>{props.lowCreditText}</span>
          {props.topUpOpen ? null : (
            <button type="button" className={styles.primary} onClick={props.openTopUp}>
              {t('calls.window.topUp')}
            </button>
          )}
        </div>
      ) : null}
      {props.problem ? (
        <p className={styles.alert} role="alert">
          {props.problem}
        </p>
      ) : null}
      {props.error ? (
        <p className={styles.alert} role="alert">
          {props.error}
        </p>
      ) : null}

      {active ? (
        <div className={styles.controls} role="group" aria-label={t('calls.window.label', { name: props.name })}>
          <button type="button" className={styles.control} aria-pressed={!props.microphoneOn} onClick={props.toggleMicrophone}>
            {props.microphoneOn ? t('calls.window.mute') : t('calls.window.unmute')}
          </button>
          <button type="button" className={styles.control} aria-pressed={!props.cameraOn} onClick={props.toggleCamera}>
            {props.cameraOn ? t('calls.window.cameraOff') : t('calls.window.cameraOn')}
          </button>
          {props.role === 'fan' && props.phase === 'live' ? (
            <button type="button" className={styles.control} aria-expanded={props.giftOpen} onClick={props.giftOpen ? props.closeGift : props.openGift}>
              {t('calls.window.gift')}
            </button>
          ) : null}
          <button type="button" className={styles.hangUp} onClick={props.hangUp} data-testid="call-hang-up">
            {t('calls.window.hangUp')}
          </button>
        </div>
      ) : null}

      {active && props.devices.length > 0 ? <Devices devices={props.devices} onChoose={props.useDevice} /> : null}

      {props.giftOpen && props.gifts ? (
        <div className={styles.panel}>
          <GiftPicker gifts={props.gifts} selectedId={null} onSelect={(gift: Gift) => props.sendGift(gift)} pictureOf={props.pictureOf} disabled={props.giftBusy} />
        </div>
      ) : null}
      {props.giftAlert ? (
        <p className={styles.alert} role="alert">
          {props.giftAlert}
        </p>
      ) : null}

      {props.topUpOpen && active ? (
        <div className={styles.panel}>
          <WalletTopUp mode="popup" headingLevel={3} onPaid={props.closeTopUp} />
          <button type="button" className={styles.link} onClick={props.closeTopUp}>
            {t('calls.window.hideTopUp')}
          </button>
        </div>
      ) : null}

      {props.phase === 'live' || props.lines.length > 0 ? (
        <div className={styles.chat}>
          <ol className={styles.lines} role="log" aria-label={t('calls.window.chat')}>
            {props.lines.map((line) => (
              <li key={line.id} className={line.mine ? styles.mine : styles.theirs}>
                {line.picture ? <img className={styles.giftPicture} src={line.picture} alt="" width={24} height={24} /> : null}
                {line.label}
              </li>
            ))}
          </ol>
          {props.phase === 'live' ? <ChatLine onSay={props.say} /> : null}
        </div>
      ) : null}

      {ended ? (
        <div className={styles.end} role="status">
          {props.endText ? <p className={styles.endText}>{props.endText}</p> : null}
          {props.totalsText ? <p data-testid="call-totals">{props.totalsText}</p> : null}
          <button type="button" className={styles.primary} onClick={props.close}>
            {t('calls.window.close')}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function Devices({ devices, onChoose }: { devices: CallWindowState['devices']; onChoose: CallWindowState['useDevice'] }) {
  const { t } = useTranslation();
  const cameraId = useId();
  const micId = useId();
  const cameras = devices.filter((d) => d.kind === 'videoinput');
  const microphones = devices.filter((d) => d.kind === 'audioinput');
  if (cameras.length < 2 && microphones.length < 2) return null;
  return (
    <div className={styles.devices}>
      {cameras.length > 1 ? (
        <span className={styles.device}>
          <label htmlFor={cameraId}>{t('calls.window.camera')}</label>
          <select id={cameraId} onChange={(event) => onChoose('videoinput', event.target.value)}>
            {cameras.map((d) => (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label}
              </option>
            ))}
          </select>
        </span>
      ) : null}
      {microphones.length > 1 ? (
        <span className={styles.device}>
          <label htmlFor={micId}>{t('calls.window.microphone')}</label>
          <select id={micId} onChange={(event) => onChoose('audioinput', event.target.value)}>
            {microphones.map((d) => (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label}
              </option>
            ))}
          </select>
        </span>
      ) : null}
    </div>
  );
}
