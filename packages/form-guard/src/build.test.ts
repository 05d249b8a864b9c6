// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { buildWidget, WIDGET_GZIP_BUDGET_BYTES } from './build';

describe('the build', () => {
  it('bundles the widget within 10 KB gzipped', async () => {
    const { code, gzipBytes } = await buildWidget();
    expect(code).toContain('/v2/form_guard');
    expect(code).not.toMatch(/\bimport\s*[{*]/); // one self-contained script
    expect(gzipBytes).toBeLessThanOrEqual(WIDGET_GZIP_BUDGET_BYTES);
  }, 60_000);
});
