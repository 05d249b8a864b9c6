import { startFormGuard, type THooks } from './widget';

/*
 * The script tag: <script async src="https://<server>/form-guard.js" data-token="vla_…"></script>
 * Optional: data-timeout="10000", data-block-on-timeout="true"; hooks in window.VerileadFormGuard = { on_ready, … }
 * set before the script loads.
 */
type TGlobal = Window & { VerileadFormGuard?: THooks & { token?: string } };

const script = document.currentScript as HTMLScriptElement | null;
const global = window as TGlobal;
const hooks = global.VerileadFormGuard ?? {};
const token = script?.dataset.token ?? hooks.token;
if (script && token) {
  const timeout = Number(script.dataset.timeout);
  const block = script.dataset.blockOnTimeout;
  const run = () =>
    startFormGuard({
      ...hooks,
      token,
      apiBase: new URL(script.src, location.href).origin,
      ...(timeout > 0 ? { timeout } : {}),
      ...(block === 'true' || block === 'false' ? { blockOnTimeout: block === 'true' } : {}),
    });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run);
  else run();
} else {
  console.warn('Verilead form guard: the script tag needs data-token');
}
