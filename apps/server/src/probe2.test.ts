import { it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp } from './test/test-app';
it('probe', async () => {
  const t = await createTestApp({ storageDir: await mkdtemp(join(tmpdir(), 'p-')) });
  const o = await t.createOwner('p@p.test');
  for (const fname of [Buffer.from('a\u0000b.csv'), Buffer.concat([Buffer.from('a'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('.csv')]), Buffer.from('x'.repeat(5000) + '.csv')]) {
    for (const url of ['/api/v1/email_verify/bulk_upload', '/api/v1/email_finder/bulk_upload']) {
      const b = 'xyz';
      const payload = Buffer.concat([Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="list_name"\r\n\r\nn\u0000x\r\n--${b}\r\nContent-Disposition: form-data; name="full_name_column"\r\n\r\n0\r\n--${b}\r\nContent-Disposition: form-data; name="domain_column"\r\n\r\n1\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="`), fname, Buffer.from(`"\r\nContent-Type: text/csv\r\n\r\nname,domain,email\r\nAda Lovelace,strict.test,a@strict.test\r\n--${b}--\r\n`)]);
      const r = await t.call({ method: 'POST', url, token: o.token, payload, headers: { 'content-type': `multipart/form-data; boundary=${b}` } });
      console.log(url, r.status, JSON.stringify(r.body).slice(0, 200));
    }
  }
  await t.close();
}, 60000);
