/**
 * The chat widget's own rules: its height and the visitor's sign-in screen. Shared by the React
 * widget (./chat.ts) and the script tag's React-free first screen (./script/chat.ts), which
 * must look the same.
 */
export const chatSignInCss = [
  ':host { height: 512px; }',
  '.fs-chat-signin { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 12px; height: 100%; padding: var(--_fs-space); text-align: center; background: var(--_fs-color-surface); }',
  '.fs-chat-signin-button { min-height: 44px; padding: 0 17.6px; font: inherit; font-weight: var(--_fs-font-weight-bold); color: var(--_fs-color-on-accent); background: var(--_fs-color-accent); border: 0; border-radius: 999px; cursor: pointer; }',
  '.fs-chat-signin-button:focus-visible { outline: 3px solid var(--_fs-color-focus); outline-offset: 2px; }',
].join('\n');
