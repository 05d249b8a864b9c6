export type TOpenWindow = (url: string, target: string) => Pick<Window, 'closed'> | null;

/**
 * Opens a download URL in a new window. Answers 'blocked' when the browser refused the pop-up:
 * `window.open` threw, returned nothing, or handed back a window that is already closed.
 */
export function openDownloadWindow(
  url: string,
  openWindow: TOpenWindow = (href, target) => window.open(href, target),
): 'opened' | 'blocked' {
  let popup: Pick<Window, 'closed'> | null;
  try {
    popup = openWindow(url, '_blank');
  } catch {
    return 'blocked';
  }
  return !popup || popup.closed ? 'blocked' : 'opened';
}

export type TBrowserName = 'Chrome' | 'Edge' | 'Firefox' | 'Safari' | 'Opera' | 'Other';
export type TOsName = 'Windows' | 'macOS' | 'Linux' | 'Android' | 'iOS' | 'Other';

/** The browser and operating system of a user agent string. */
export function detectBrowser(userAgent: string): { browser: TBrowserName; os: TOsName } {
  const ua = userAgent;
  let browser: TBrowserName = 'Other';
  if (/Edg\//.test(ua)) browser = 'Edge';
  else if (/OPR\/|Opera/.test(ua)) browser = 'Opera';
  else if (/Firefox\/|FxiOS/.test(ua)) browser = 'Firefox';
  else if (/Chrome\/|CriOS|Chromium/.test(ua)) browser = 'Chrome';
  else if (/Safari\//.test(ua)) browser = 'Safari';
  let os: TOsName = 'Other';
  if (/iPhone|iPad|iPod/.test(ua)) os = 'iOS';
  else if (/Android/.test(ua)) os = 'Android';
  else if (/Windows/.test(ua)) os = 'Windows';
  else if (/Mac OS X|Macintosh/.test(ua)) os = 'macOS';
  else if (/Linux|X11/.test(ua)) os = 'Linux';
  return { browser, os };
}

export type TPopupHelp = { browser: TBrowserName; os: TOsName; steps: string[]; helpUrl: string | null };

const HELP_URLS: Record<TBrowserName, string | null> = {
  Chrome: 'https://support.google.com/chrome/answer/95472',
  Edge: 'https://support.microsoft.com/en-us/microsoft-edge/block-pop-ups-in-microsoft-edge-1d8ba4f8-f385-9a0b-e944-aa47339b6bb5',
  Firefox: 'https://support.mozilla.org/en-US/kb/pop-blocker-settings-exceptions-troubleshooting',
  Safari: 'https://support.apple.com/guide/safari/block-pop-ups-sfri40696/mac',
  Opera: 'https://help.opera.com/en/latest/web-preferences/#popUps',
  Other: null,
};

/** Steps to allow pop-ups for `host`, for the given browser and OS. */
export function getPopupHelp(userAgent: string, host: string): TPopupHelp {
  const { browser, os } = detectBrowser(userAgent);
  const mobile = os === 'Android' || os === 'iOS';
  let steps: string[];
  if (browser === 'Safari' && os === 'iOS') {
    steps = ['Open the Settings app and choose Safari.', 'Turn off Block Pop-ups.', `Come back to ${host} and download again.`];
  } else if (browser === 'Safari') {
    steps = [`In the menu bar choose Safari → Settings for ${host}.`, 'Set Pop-up Windows to Allow.', 'Download again.'];
  } else if (browser === 'Firefox') {
    steps = mobile
      ? ['Open the menu ⋮ → Settings → Site permissions.', `Allow pop-ups for ${host}.`, 'Download again.']
      : [
          'Click the yellow bar "Firefox prevented this site from opening a pop-up window" (or the icon in the address bar).',
          `Choose Allow pop-ups for ${host}.`,
          'Download again.',
        ];
  } else if (browser === 'Chrome' || browser === 'Edge' || browser === 'Opera') {
    steps = mobile
      ? [`Open the menu ⋮ → Settings → Site settings → Pop-ups and redirects.`, `Allow ${host}.`, 'Download again.']
      : [
          'Click the blocked pop-up icon at the right end of the address bar.',
          `Choose Always allow pop-ups and redirects from ${host}, then Done.`,
          'Download again.',
        ];
  } else {
    steps = [`Allow pop-ups for ${host} in your browser's site settings.`, 'Download again.'];
  }
  return { browser, os, steps, helpUrl: HELP_URLS[browser] };
}
