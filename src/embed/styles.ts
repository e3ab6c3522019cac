/**
 * The bell's styles, inside its shadow root: the site's CSS cannot reach in and ours cannot leak
 * out. Colours are chosen for contrast on white (the bell sits on a white disc when floating):
 * grey #616161 (6.2:1) off, amber #b45309 (5.0:1) on, #1d4e89 buttons with white text (8.9:1).
 */
export const BELL_CSS = `
:host { display: inline-block; position: relative; vertical-align: middle; font: 400 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
:host([state="hidden"]), :host([state="checking"]) { display: none; }
:host([floating]) { position: fixed; z-index: 2147483000; }
:host([floating][position="bottom-right"]) { right: 20px; bottom: 20px; }
:host([floating][position="bottom-left"]) { left: 20px; bottom: 20px; }
:host([floating][position="top-right"]) { right: 20px; top: 20px; }
:host([floating][position="top-left"]) { left: 20px; top: 20px; }
.bar { display: inline-flex; align-items: center; gap: 2px; position: relative; }
:host([floating]) .bar { background: #fff; border-radius: 28px; padding: 4px; box-shadow: 0 2px 8px rgba(0,0,0,.25); }
button { font: inherit; cursor: pointer; }
.icon-button { position: relative; display: inline-flex; align-items: center; justify-content: center; width: 48px; height: 48px; padding: 0; border: 0; border-radius: 50%; background: transparent; color: #616161; }
.icon-button svg { width: 26px; height: 26px; }
.icon-button:hover { background: rgba(0,0,0,.06); }
.icon-button:focus-visible { outline: 3px solid #1d4e89; outline-offset: 2px; }
.bell[data-state="on"] { color: #b45309; }
.bell[aria-disabled="true"] { cursor: progress; }
.bell[aria-busy="true"]::after { content: ""; position: absolute; inset: 2px; border-radius: 50%; border: 2px solid #9aa0a6; border-top-color: transparent; animation: sino-spin 1s linear infinite; }
.bell[data-state="denied"]::before { content: ""; position: absolute; right: 9px; top: 9px; width: 9px; height: 9px; border-radius: 50%; background: #b3261e; border: 2px solid #fff; }
.channels svg { width: 22px; height: 22px; }
@keyframes sino-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .bell[aria-busy="true"]::after { animation: none; border-top-color: #9aa0a6; } }
.tip { position: absolute; top: calc(100% + 6px); right: 0; white-space: nowrap; background: #3c4043; color: #fff; font-size: 13px; padding: 4px 8px; border-radius: 4px; pointer-events: none; z-index: 1; }
:host([floating][position^="bottom"]) .tip { top: auto; bottom: calc(100% + 6px); }
:host([position$="left"]) .tip { right: auto; left: 0; }
.tip[hidden], .visually-hidden { display: none; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
dialog { box-sizing: border-box; max-width: min(420px, calc(100vw - 32px)); border: 0; border-radius: 12px; padding: 20px; color: #1f2328; background: #fff; box-shadow: 0 8px 32px rgba(0,0,0,.3); text-align: left; }
dialog::backdrop { background: rgba(0,0,0,.4); }
dialog h2 { font-size: 17px; line-height: 1.3; margin: 0 0 8px; }
dialog p { margin: 0 0 12px; }
dialog.prompt { position: fixed; inset: 16px auto auto 50%; transform: translateX(-50%); margin: 0; z-index: 2147483001; }
:host([floating][position^="bottom"]) dialog.prompt { inset: auto auto 84px auto; transform: none; }
:host([floating][position$="right"]) dialog.prompt { right: 20px; }
:host([floating][position$="left"]) dialog.prompt { left: 20px; }
.actions { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 8px; margin-top: 16px; }
.primary, .secondary { min-height: 40px; padding: 8px 16px; border-radius: 20px; border: 2px solid var(--sino-accent, #1d4e89); font-weight: 600; }
.primary { background: var(--sino-accent, #1d4e89); color: #fff; }
.secondary { background: #fff; color: var(--sino-accent, #1d4e89); }
.organisation { display: flex; align-items: center; gap: 8px; margin: 0 0 12px; font-weight: 600; color: var(--sino-accent, #1d4e89); overflow-wrap: anywhere; }
.organisation[hidden] { display: none; }
.organisation img { width: 28px; height: 28px; object-fit: contain; border-radius: 6px; flex: none; }
.primary:focus-visible, .secondary:focus-visible, input:focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
.primary[disabled] { background: #5f6368; border-color: #5f6368; cursor: not-allowed; }
fieldset { border: 0; margin: 0; padding: 0; max-height: 50vh; overflow: auto; }
label.channel { display: flex; gap: 10px; align-items: flex-start; padding: 6px 0; cursor: pointer; }
label.channel input { width: 18px; height: 18px; margin: 2px 0 0; accent-color: #1d4e89; flex: none; }
.channel-name { font-weight: 600; display: block; overflow-wrap: anywhere; }
.channel-description { display: block; color: #4d5156; font-size: 14px; overflow-wrap: anywhere; }
.error { color: #b3261e; }
.privacy { border-top: 1px solid #dadce0; margin-top: 16px; padding-top: 12px; }
.privacy h3 { font-size: 15px; margin: 0 0 6px; }
.privacy .actions { justify-content: flex-start; margin-top: 8px; }
.privacy [hidden] { display: none; }
.quiet { border-top: 1px solid #dadce0; margin-top: 16px; padding-top: 12px; }
.quiet h3 { font-size: 15px; margin: 0 0 4px; }
.times { display: flex; align-items: center; gap: 8px; }
.times input { font: inherit; padding: 4px; }
`;
