import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { detectFieldType, startFormGuard } from './widget';

const CONFIG = {
  fields: { email: true, phone: true, name: true },
  validate_on_blur: true,
  messages: { email: 'Bad email', phone: 'Bad phone', name: 'Bad name', timeout: 'Try again' },
  timeout_ms: 10_000,
  block_on_timeout: false,
};

type TCall = { url: string; body: Record<string, string> | null };
let calls: TCall[];
/** What the validate call answers for a value: a verdict, an HTTP status, or 'hang' (never answers). */
let answer: (value: string) => { is_acceptable: boolean; error_msg: string | null } | number | 'hang';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  calls = [];
  answer = (v) => (v.startsWith('bad') ? { is_acceptable: false, error_msg: 'Bad email' } : { is_acceptable: true, error_msg: null });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const body = init.body ? (JSON.parse(String(init.body)) as Record<string, string>) : null;
      calls.push({ url, body });
      if (url.includes('/config')) return Promise.resolve(json(200, { status: 'success', data: CONFIG }));
      const a = answer(body?.value ?? '');
      if (a === 'hang') {
        return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      }
      if (typeof a === 'number') return Promise.resolve(json(a, { status: 'failed', error: { code: 1030, message: 'limit' } }));
      return Promise.resolve(json(200, { status: 'success', data: a }));
    }),
  );
  document.body.innerHTML = '<form id="f"><input type="email" name="email"><input name="phone"><input name="first_name"><input name="company"><button>Send</button></form>';
});
afterEach(() => vi.unstubAllGlobals());

const validateCalls = () => calls.filter((c) => c.url.includes('/validate'));

/** Submits the form and answers once the page's own submit handler ran (or the guard refused). */
function submit(form: HTMLFormElement): Promise<boolean> {
  return new Promise((resolve) => {
    const sent = (e: Event) => {
      e.preventDefault();
      resolve(true);
    };
    form.addEventListener('submit', sent, { once: true });
    form.requestSubmit();
    // The guard refuses by focusing the first refused field.
    form.addEventListener('focusin', () => setTimeout(() => resolve(false), 0), { once: true });
  });
}

describe('field detection', () => {
  it('finds fields by type, data attribute, autocomplete and common names', () => {
    const make = (html: string) => {
      document.body.innerHTML = html;
      return detectFieldType(document.querySelector('input')!);
    };
    expect(make('<input type="email">')).toBe('email');
    expect(make('<input type="tel">')).toBe('phone');
    expect(make('<input name="user_email">')).toBe('email');
    expect(make('<input name="mobile">')).toBe('phone');
    expect(make('<input name="fullname">')).toBe('name');
    expect(make('<input autocomplete="given-name" name="x">')).toBe('name');
    expect(make('<input data-verilead-field="email" name="contact">')).toBe('email');
    expect(make('<input type="email" data-verilead-ignore>')).toBeNull();
    expect(make('<input name="company">')).toBeNull();
    expect(make('<input type="password" name="email">')).toBeNull();
  });
});

describe('the widget', () => {
  it('refuses a bad address with the message and lets a good form through', async () => {
    const guard = startFormGuard({ token: 'vla_x', apiBase: 'https://api.test/' });
    await guard.ready;
    const form = document.getElementById('f') as HTMLFormElement;
    const email = form.querySelector<HTMLInputElement>('input[type=email]')!;
    email.value = 'bad@x.com';
    expect(await submit(form)).toBe(false);
    expect(email.nextElementSibling?.textContent).toBe('Bad email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(validateCalls()[0]!.url).toBe('https://api.test/v2/form_guard/validate');
    email.value = 'good@x.com';
    expect(await submit(form)).toBe(true);
    expect(email.nextElementSibling?.textContent).toBe('');
    guard.destroy();
  });

  it('lets the form through when a blur check is still running at submit', async () => {
    const guard = startFormGuard({ token: 'vla_x', apiBase: 'https://api.test' });
    await guard.ready;
    const form = document.getElementById('f') as HTMLFormElement;
    const email = form.querySelector<HTMLInputElement>('input[type=email]')!;
    email.value = 'bad@x.com';
    expect(await submit(form)).toBe(false);
    email.value = 'good@x.com';
    email.dispatchEvent(new Event('blur'));
    expect(await submit(form)).toBe(true);
    expect(validateCalls()).toHaveLength(2);
    guard.destroy();
  });

  // e2e form-guard.spec failed now and then: the press on "Sign up" blurred the field, its check answered before the
  // release, the message went and the button moved up from under the pointer, so the click (and the form) was lost.
  it('keeps a refused message in place while a click is pressed, and clears it once the click is done', async () => {
    const guard = startFormGuard({ token: 'vla_x', apiBase: 'https://api.test' });
    await guard.ready;
    const form = document.getElementById('f') as HTMLFormElement;
    const email = form.querySelector<HTMLInputElement>('input[type=email]')!;
    const button = form.querySelector('button')!;
    email.value = 'bad@x.com';
    expect(await submit(form)).toBe(false);
    email.value = 'good@x.com';
    button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(await guard.verify(email)).toBe(true);
    expect(email.getAttribute('aria-invalid')).toBeNull();
    expect(email.nextElementSibling?.textContent).toBe('Bad email');
    button.dispatchEvent(new Event('pointerup', { bubbles: true }));
    expect(email.nextElementSibling?.textContent).toBe('Bad email');
    await new Promise((r) => setTimeout(r, 0)); // the click's task is over
    expect(email.nextElementSibling?.textContent).toBe('');
    guard.destroy();
  });

  it('checks on blur once per value and calls the hooks, whose answer wins', async () => {
    const ready = vi.fn();
    const guard = startFormGuard({
      token: 'vla_x',
      apiBase: 'https://api.test',
      on_ready: ready,
      on_before_verify: ({ type }) => type !== 'name',
      on_after_verify: ({ value, result }) => (value === 'boss@x.com' ? { is_acceptable: false, error_msg: 'No bosses' } : result),
    });
    await guard.ready;
    expect(ready).toHaveBeenCalledWith({ fields: expect.any(Array) });
    expect(ready.mock.calls[0]![0].fields).toHaveLength(3);
    const email = document.querySelector<HTMLInputElement>('input[type=email]')!;
    email.value = 'boss@x.com';
    expect(await guard.verify(email)).toBe(false);
    expect(email.nextElementSibling?.textContent).toBe('No bosses');
    expect(await guard.verify(email)).toBe(false);
    expect(validateCalls()).toHaveLength(1);
    const name = document.querySelector<HTMLInputElement>('input[name=first_name]')!;
    name.value = 'Zzxq';
    expect(await guard.verify(name)).toBe(true);
    expect(validateCalls()).toHaveLength(1);
    guard.destroy();
  });

  it('fails open on timeout, and blocks when configured to', async () => {
    answer = () => 'hang';
    const open = startFormGuard({ token: 'vla_x', apiBase: 'https://api.test', timeout: 20 });
    await open.ready;
    const form = document.getElementById('f') as HTMLFormElement;
    const email = form.querySelector<HTMLInputElement>('input[type=email]')!;
    email.value = 'slow@x.com';
    expect(await submit(form)).toBe(true);
    open.destroy();

    document.body.innerHTML = '<form id="f"><input type="email" name="email" value="slow@x.com"></form>';
    const form2 = document.getElementById('f') as HTMLFormElement;
    const email2 = form2.querySelector('input')!;
    const blocking = startFormGuard({ token: 'vla_x', apiBase: 'https://api.test', timeout: 20, blockOnTimeout: true });
    await blocking.ready;
    expect(await submit(form2)).toBe(false);
    expect(email2.nextElementSibling?.textContent).toBe('Try again');
    blocking.destroy();
  });

  it('stops checking once a limit is reached', async () => {
    answer = () => 429;
    const guard = startFormGuard({ token: 'vla_x', apiBase: 'https://api.test' });
    await guard.ready;
    const form = document.getElementById('f') as HTMLFormElement;
    const email = form.querySelector<HTMLInputElement>('input[type=email]')!;
    email.value = 'bad@x.com';
    expect(await submit(form)).toBe(true);
    email.value = 'bad2@x.com';
    expect(await submit(form)).toBe(true);
    expect(validateCalls().map((c) => c.body?.value)).toEqual(['bad@x.com']);
    guard.destroy();
  });

  it('guards forms added after load', async () => {
    document.body.innerHTML = '';
    const guard = startFormGuard({ token: 'vla_x', apiBase: 'https://api.test' });
    await guard.ready;
    const form = document.createElement('form');
    form.innerHTML = '<input name="email" type="email">';
    document.body.append(form);
    await new Promise((r) => setTimeout(r, 0)); // the MutationObserver's turn
    const email = form.querySelector('input')!;
    email.value = 'bad@x.com';
    expect(await submit(form)).toBe(false);
    expect(email.nextElementSibling?.textContent).toBe('Bad email');
    guard.destroy();
  });

  // e2e form-guard.spec failed in CI: the form was sent before the guard had its settings, and went through unchecked.
  it('holds a form sent before the settings came, then checks it', async () => {
    let settle: () => void = () => undefined;
    const settings = new Promise<void>((resolve) => (settle = resolve));
    const stubbed = fetch;
    vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
      if (url.includes('/config')) await settings;
      return stubbed(url, init);
    }));
    const guard = startFormGuard({ token: 'vla_x', apiBase: 'https://api.test' });
    const form = document.getElementById('f') as HTMLFormElement;
    const email = form.querySelector<HTMLInputElement>('input[type=email]')!;
    email.value = 'bad@x.com';
    const sent = submit(form);
    expect(validateCalls()).toHaveLength(0);
    settle();
    expect(await sent).toBe(false);
    expect(email.nextElementSibling?.textContent).toBe('Bad email');
    expect(validateCalls()).toHaveLength(1);
    guard.destroy();
  });

  it('sends a held form as it is when the settings are refused', async () => {
    let settle: () => void = () => undefined;
    const settings = new Promise<void>((resolve) => (settle = resolve));
    vi.stubGlobal('fetch', vi.fn(async () => {
      await settings;
      return json(403, { status: 'failed', error: { code: 1074, message: 'origin' } });
    }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const guard = startFormGuard({ token: 'vla_x', apiBase: 'https://api.test' });
    const form = document.getElementById('f') as HTMLFormElement;
    form.querySelector<HTMLInputElement>('input[type=email]')!.value = 'bad@x.com';
    const sent = submit(form);
    settle();
    expect(await sent).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('refused (403)'));
    warn.mockRestore();
    guard.destroy();
  });

  it('does nothing when the guard refuses the site', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(json(403, { status: 'failed', error: { code: 1074, message: 'origin' } }))));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const guard = startFormGuard({ token: 'vla_x', apiBase: 'https://api.test' });
    await guard.ready;
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('refused (403)'));
    const form = document.getElementById('f') as HTMLFormElement;
    form.querySelector<HTMLInputElement>('input[type=email]')!.value = 'bad@x.com';
    expect(await submit(form)).toBe(true);
    warn.mockRestore();
  });
});
