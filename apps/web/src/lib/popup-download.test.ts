import { describe, expect, it, vi } from 'vitest';
import { detectBrowser, getPopupHelp, openDownloadWindow } from './popup-download';

const CHROME_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const EDGE = `${CHROME_WIN} Edg/131.0.0.0`;
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const SAFARI_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('openDownloadWindow', () => {
  it('reports a pop-up the browser refused', () => {
    expect(openDownloadWindow('/f', () => null)).toBe('blocked');
    expect(openDownloadWindow('/f', () => ({ closed: true }))).toBe('blocked');
    expect(
      openDownloadWindow('/f', () => {
        throw new Error('blocked');
      }),
    ).toBe('blocked');
  });

  it('opens the URL in a new window', () => {
    const open = vi.fn(() => ({ closed: false }));
    expect(openDownloadWindow('/api/v1/public/download?download_token=t', open)).toBe('opened');
    expect(open).toHaveBeenCalledWith('/api/v1/public/download?download_token=t', '_blank');
  });
});

describe('pop-up help', () => {
  it.each([
    [CHROME_WIN, 'Chrome', 'Windows'],
    [EDGE, 'Edge', 'Windows'],
    [FIREFOX_LINUX, 'Firefox', 'Linux'],
    [SAFARI_MAC, 'Safari', 'macOS'],
    [SAFARI_IOS, 'Safari', 'iOS'],
  ])('detects %s', (ua, browser, os) => {
    expect(detectBrowser(ua)).toEqual({ browser, os });
  });

  it('gives steps naming the domain, per browser and OS', () => {
    expect(getPopupHelp(CHROME_WIN, 'app.verilead.test').steps.join(' ')).toContain('Always allow pop-ups and redirects from app.verilead.test');
    expect(getPopupHelp(SAFARI_IOS, 'app.verilead.test').steps[0]).toContain('Settings app');
    expect(getPopupHelp(SAFARI_MAC, 'app.verilead.test').steps[0]).toContain('Settings for app.verilead.test');
    expect(getPopupHelp(FIREFOX_LINUX, 'h').helpUrl).toContain('mozilla');
    expect(getPopupHelp('curl/8', 'h').helpUrl).toBeNull();
  });
});
