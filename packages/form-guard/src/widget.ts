/*
 * The Verilead form guard: finds e-mail, phone and name fields in the page's forms (also forms added later),
 * checks them on blur and on submit against the form guard API with a client token, shows the guard's messages
 * and keeps a form from being sent while a field is refused. Framework-free and dependency-free.
 *
 * A check that times out is accepted ("fail open") unless the guard blocks on timeout; a guard whose limit is
 * reached, or that cannot be reached at all, stops checking and never stands in the way of the form.
 */

export type TFieldType = 'email' | 'phone' | 'name';

export type TVerdict = { is_acceptable: boolean; error_msg: string | null; reason?: string | null };

export type THooks = {
  /** Called once the guard's settings are loaded and the page's fields found. */
  on_ready?: (info: { fields: HTMLInputElement[] }) => void;
  /** Return false to skip the check of this value (it is accepted). */
  on_before_verify?: (info: { type: TFieldType; value: string; input: HTMLInputElement }) => boolean | void;
  /** Return `{ is_acceptable, error_msg }` to override the guard's answer. */
  on_after_verify?: (info: { type: TFieldType; value: string; input: HTMLInputElement; result: TVerdict }) => TVerdict | void;
};

export type TWidgetOptions = THooks & {
  token: string;
  /** The server (origin) of the form guard API. */
  apiBase: string;
  /** Overrides the guard's timeout (ms). */
  timeout?: number;
  /** Overrides whether a timed-out check refuses the field. */
  blockOnTimeout?: boolean;
  root?: Document;
};

type TConfig = {
  fields: Record<TFieldType, boolean>;
  validate_on_blur: boolean;
  messages: Record<TFieldType | 'timeout', string>;
  timeout_ms: number;
  block_on_timeout: boolean;
};

type TState = 'checking' | 'ok' | 'bad';

const NAME_FIELDS = /^(full_?name|name|first_?name|last_?name|given_?name|family_?name|fname|lname|your-name)$/i;
const ATTR = 'data-verilead-field';
const STATE = 'data-fg-state';

/** The kind of field an input is, or null (by data attribute, type, autocomplete, then common names). */
export function detectFieldType(input: HTMLInputElement): TFieldType | null {
  if (input.hasAttribute('data-verilead-ignore')) return null;
  const marked = input.getAttribute(ATTR);
  if (marked === 'email' || marked === 'phone' || marked === 'name') return marked;
  const type = (input.getAttribute('type') ?? 'text').toLowerCase();
  if (type === 'email') return 'email';
  if (type === 'tel') return 'phone';
  if (type !== 'text') return null;
  const auto = (input.getAttribute('autocomplete') ?? '').toLowerCase();
  const id = `${input.name} ${input.id}`.toLowerCase();
  if (auto === 'email' || /(^|[_\-\s])e-?mail/.test(id)) return 'email';
  if (auto === 'tel' || /phone|mobile|(^|[_\-\s])tel([_\-\s]|$)/.test(id)) return 'phone';
  if (/^(name|given-name|family-name)$/.test(auto) || NAME_FIELDS.test(input.name) || NAME_FIELDS.test(input.id)) return 'name';
  return null;
}

function newRequestId(): string {
  return `fg_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
}

/** Starts the guard on a document; answers a handle to re-scan or stop (tests, single-page apps). */
export function startFormGuard(opts: TWidgetOptions) {
  const doc = opts.root ?? document;
  const base = opts.apiBase.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${opts.token}` };
  const known = new WeakSet<HTMLInputElement>();
  const fields: HTMLInputElement[] = [];
  /** Answers per field type and value: a value is checked (and charged) once per page. */
  const answers = new Map<string, Promise<TVerdict>>();
  let config: TConfig | null = null;
  let stopped = false;
  let observer: MutationObserver | null = null;

  const timeoutMs = () => opts.timeout ?? config?.timeout_ms ?? 10_000;
  const blockOnTimeout = () => opts.blockOnTimeout ?? config?.block_on_timeout ?? false;

  async function call(path: string, init: RequestInit, ms: number): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), ms);
    try {
      return await fetch(`${base}/v2/form_guard${path}`, { ...init, signal: controller.signal, credentials: 'omit' });
    } finally {
      clearTimeout(timer);
    }
  }

  function messageOf(input: HTMLInputElement): HTMLElement {
    const next = input.nextElementSibling;
    if (next instanceof HTMLElement && next.classList.contains('vl-fg-msg')) return next;
    const el = doc.createElement('div');
    el.className = 'vl-fg-msg';
    el.setAttribute('role', 'alert');
    el.style.cssText = 'color:#c92a2a;font-size:0.85em;margin-top:4px';
    input.insertAdjacentElement('afterend', el);
    return el;
  }

  function show(input: HTMLInputElement, state: TState, message: string | null) {
    input.setAttribute(STATE, state);
    input.setAttribute('data-fg-value', state === 'ok' ? input.value.trim() : '');
    if (state === 'bad') input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
    // While checking, the last message stays: clearing it would move the page under the visitor's click.
    if (state === 'checking') return;
    if (message) {
      messageOf(input).textContent = message;
      return;
    }
    const clear = () => {
      const existing = input.nextElementSibling;
      if (input.getAttribute(STATE) === 'ok' && existing instanceof HTMLElement && existing.classList.contains('vl-fg-msg')) existing.textContent = '';
    };
    // A check answered between the press and the release of the visitor's click (the press blurred the field and
    // started it): removing the message now would move the button from under the pointer and the click would be
    // lost. The message goes once the click is done.
    if (pointerHeld) afterClick.push(clear);
    else clear();
  }

  let pointerHeld = false;
  const afterClick: (() => void)[] = [];
  const onPointerDown = () => {
    pointerHeld = true;
  };
  const onPointerUp = () => {
    pointerHeld = false;
    // The click (and the submit it starts) is dispatched in the same task as the release.
    setTimeout(() => {
      for (const run of afterClick.splice(0)) run();
    }, 0);
  };

  async function ask(type: TFieldType, value: string): Promise<TVerdict> {
    try {
      const res = await call(
        '/validate',
        { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ type, value, request_id: newRequestId(), page_url: location.href }) },
        timeoutMs(),
      );
      if (res.ok) return ((await res.json()) as { data: TVerdict }).data;
      // A limit, no credits, a refused page or origin: stop checking; the visitor is never held up by it.
      if (res.status !== 400) stop();
      return { is_acceptable: true, error_msg: null };
    } catch {
      // Timed out or unreachable: fail open unless the guard blocks on timeout.
      const block = blockOnTimeout();
      return { is_acceptable: !block, error_msg: block ? (config?.messages.timeout ?? 'Please try again') : null, reason: 'timeout' };
    }
  }

  /** Checks one field; answers whether it may be sent. */
  async function verify(input: HTMLInputElement): Promise<boolean> {
    const type = detectFieldType(input);
    const value = input.value.trim();
    if (!type || !config || stopped || !value || !config.fields[type]) {
      show(input, 'ok', null);
      return true;
    }
    if (opts.on_before_verify?.({ type, value, input }) === false) {
      show(input, 'ok', null);
      return true;
    }
    const key = `${type}:${value.toLowerCase()}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = ask(type, value);
      answers.set(key, answer);
      // A timeout is not remembered: the next try asks again.
      void answer.then((a) => a.reason === 'timeout' && answers.delete(key));
    }
    show(input, 'checking', null);
    let result = await answer;
    if (input.value.trim() !== value) return verify(input); // changed while checking
    result = opts.on_after_verify?.({ type, value, input, result }) ?? result;
    show(input, result.is_acceptable ? 'ok' : 'bad', result.is_acceptable ? null : (result.error_msg ?? config.messages[type]));
    return result.is_acceptable;
  }

  function scan(root: ParentNode) {
    for (const input of Array.from(root.querySelectorAll('input'))) {
      if (known.has(input) || !detectFieldType(input)) continue;
      known.add(input);
      fields.push(input);
      input.addEventListener('blur', () => {
        if (config?.validate_on_blur) void verify(input);
      });
    }
  }

  function guardedFields(form: HTMLFormElement): HTMLInputElement[] {
    return fields.filter((f) => f.form === form && f.isConnected);
  }

  // Capture phase on the document: runs before the page's own submit handlers, for forms added at any time.
  const onSubmit = (event: Event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || stopped) return;
    const submitter = (event as SubmitEvent).submitter as HTMLElement | null;
    const resend = () => {
      if (form.isConnected) form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
    };
    if (!config) {
      // Sent before the guard has its settings (a quick visitor, or a bot that submits at once): held until the
      // settings come, then checked; sent as it is if they never come (the guard fails open: it stops listening then).
      event.preventDefault();
      event.stopImmediatePropagation();
      void ready.then(resend, resend);
      return;
    }
    const inputs = guardedFields(form);
    const pending = inputs.filter((i) => i.getAttribute(STATE) !== 'ok' || i.getAttribute('data-fg-value') !== i.value.trim());
    if (pending.length === 0) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    void Promise.all(inputs.map(verify)).then((results) => {
      const firstBad = inputs[results.indexOf(false)];
      if (firstBad) firstBad.focus();
      else resend();
    });
  };

  function stop() {
    stopped = true;
    for (const f of fields) show(f, 'ok', null);
  }

  /** Fetches the guard's settings, then watches the page's fields; a form sent meanwhile waits for it. */
  async function start() {
    doc.addEventListener('submit', onSubmit, true);
    config = await loadConfig();
    // Refused, unreachable, or destroyed meanwhile: nothing to watch.
    if (!config || stopped) {
      doc.removeEventListener('submit', onSubmit, true);
      return;
    }
    scan(doc);
    doc.addEventListener('pointerdown', onPointerDown, true);
    doc.addEventListener('pointerup', onPointerUp, true);
    doc.addEventListener('pointercancel', onPointerUp, true);
    observer = new MutationObserver((records) => {
      for (const r of records) for (const n of Array.from(r.addedNodes)) if (n instanceof Element) scan(n.parentNode ?? n);
    });
    observer.observe(doc.documentElement, { childList: true, subtree: true });
    opts.on_ready?.({ fields: [...fields] });
  }

  /** The guard's settings; null when refused or unreachable (never rejects). */
  async function loadConfig(): Promise<TConfig | null> {
    let res: Response;
    try {
      res = await call(`/config?page_url=${encodeURIComponent(location.href)}`, { headers }, timeoutMs());
      if (!res.ok) {
        console.warn(`Verilead form guard: refused (${res.status}); forms are not checked`);
        return null;
      }
      return ((await res.json()) as { data: TConfig }).data;
    } catch {
      console.warn('Verilead form guard: the guard could not be reached; forms are not checked');
      return null;
    }
  }

  const ready = start();
  return {
    ready,
    verify,
    scan: () => scan(doc),
    destroy() {
      observer?.disconnect();
      doc.removeEventListener('submit', onSubmit, true);
      doc.removeEventListener('pointerdown', onPointerDown, true);
      doc.removeEventListener('pointerup', onPointerUp, true);
      doc.removeEventListener('pointercancel', onPointerUp, true);
      stopped = true;
    },
  };
}
