/**
 * The box each widget takes while its chunk loads (`:not(:defined)`), the one it keeps once
 * rendered (each element's `:host` rule), so nothing on the partner's page moves when it shows.
 * A page's own rules for the tag (a `height`, a `display`) win: the rules weigh nothing (`:where`).
 * In px, as the widgets inside are (vite.shadow-css.ts): a page's root font size changes neither.
 *
 * The loader puts them first in the page's `<head>` as `<style id="fanstage-reserved">`; a page
 * that has them already, under that id, from its first paint (docs/embedding.md, "Keep your
 * page still"; the partner demo does) is left as it is.
 */
export const reservedCss =
  ':where(fanstage-profile-card,fanstage-feed,fanstage-chat,fanstage-call,fanstage-wallet,fanstage-tip-button){display:block}' +
  ':where(fanstage-tip-button,fanstage-call){min-height:44px}' +
  ':where(fanstage-wallet){min-height:88px}' +
  ':where(fanstage-tip-button:not(:defined)){min-width:160px}' +
  ':where(fanstage-chat){height:512px}' +
  // The card lays itself out by its own width (side by side from 480px, stacked below), so its
  // box does too: a float as tall as the stacked card under 480px and the side-by-side one from
  // there (a padding's percentage is of the width), which the element grows around.
  ':where(fanstage-profile-card){display:flow-root}' +
  ':where(fanstage-profile-card)::before{content:"";float:left;padding-top:clamp(308px,(480px - 100%) * 1000,432px)}' +
  ':where(fanstage-feed:not(:defined)){min-height:640px}';
