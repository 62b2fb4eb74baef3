// The phone's side of a scan session: one small page, no framework. The claim token comes from
// the URL's fragment (never sent to a server or written to a log); the device token it is
// exchanged for stays in the tab's sessionStorage.
// The script and the style are the same bytes on every page (the session id is an attribute), so
// the Content-Security-Policy allows exactly them by their SHA-256 (api/middleware/securityHeaders.ts).
import { escapeHtml } from '../portal/html.js';

export const SCAN_PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;margin:1.2rem;max-width:32rem}button,label{display:block;width:100%;padding:1rem;margin:.6rem 0;font-size:1.1rem;text-align:center;border:1px solid #888;border-radius:.6rem;background:#f4f4f4}li{margin:.3rem 0}';

export const SCAN_PAGE_SCRIPT = `
const id = document.body.dataset.session;
const base = '/api/scan-sessions/' + id;
const state = document.getElementById('state');
let device = sessionStorage.getItem('scan-' + id);
const claim = new URLSearchParams(location.hash.slice(1)).get('claim');
if (!device && claim) {
  const res = await fetch(base + '/claim', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ claim_token: claim }) });
  const body = await res.json();
  if (res.ok) { device = body.device_token; sessionStorage.setItem('scan-' + id, device); history.replaceState(null, '', location.pathname); }
  else state.textContent = body.detail;
}
if (device) {
  state.textContent = 'Linked. Photograph one card at a time.';
  document.getElementById('take').hidden = false;
  document.getElementById('done').hidden = false;
}
document.getElementById('photo').addEventListener('change', async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  state.textContent = 'Recognising…';
  const form = new FormData();
  form.append('file', file);
  const res = await fetch(base + '/upload-photo', { method: 'POST', headers: { 'X-Scan-Device-Token': device }, body: form });
  const body = await res.json();
  const item = document.createElement('li');
  item.textContent = res.ok ? (body.candidates[0] ? body.candidates[0].name + ' · ' + body.candidates[0].set_name + ' ' + body.candidates[0].collector_number + ' (' + body.capture_quality.verdict + ')' : 'No card found: try again closer, on a plain background') : body.detail;
  document.getElementById('seen').prepend(item);
  state.textContent = 'Linked. Photograph one card at a time.';
  e.target.value = '';
});
document.getElementById('done').addEventListener('click', async () => {
  await fetch(base + '/complete', { method: 'POST', headers: { 'X-Scan-Device-Token': device } });
  state.textContent = 'Done: the results are on your computer.';
  document.getElementById('take').hidden = true;
  document.getElementById('done').hidden = true;
});
`;

export function scanPage(sessionId: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Holo · scan cards</title>
<style>${SCAN_PAGE_STYLE}</style>
</head><body data-session="${escapeHtml(sessionId)}">
<h1>Scan cards</h1>
<p id="state">Linking this phone…</p>
<label id="take" hidden>Take a photo<input id="photo" type="file" accept="image/*" capture="environment" hidden></label>
<ul id="seen"></ul>
<button id="done" hidden>Done</button>
<script type="module">${SCAN_PAGE_SCRIPT}</script>
</body></html>`;
}
