import { describe, expect, it } from 'vitest';
import { detectProvider } from './provider';

describe('detectProvider', () => {
  it.each([
    ['gmail-smtp-in.l.google.com', 'Google'],
    ['ASPMX.L.GOOGLE.COM.', 'Google'],
    ['contoso-com.mail.protection.outlook.com', 'Microsoft'],
    ['outlook-com.olc.protection.outlook.com', 'Microsoft'],
    ['mta5.am0.yahoodns.net', 'Yahoo'],
    ['mx.zoho.com', 'Zoho'],
    ['mx01.mail.icloud.com', 'Apple'],
    ['mail.protonmail.ch', 'Proton'],
    ['mx.yandex.net', 'Yandex'],
    ['mxs.mail.ru', 'Mail.ru'],
    ['mx00.gmx.net', 'GMX'],
    ['in1-smtp.messagingengine.com', 'Fastmail'],
    ['mx0a-001.pphosted.com', 'Proofpoint'],
    ['eu-smtp-inbound-1.mimecast.com', 'Mimecast'],
    ['d123.ess.barracudanetworks.com', 'Barracuda'],
  ])('%s is %s', (host, provider) => {
    expect(detectProvider(host)).toBe(provider);
  });
  it('returns null for unknown hosts and no host', () => {
    expect(detectProvider('mx.strict.test')).toBeNull();
    expect(detectProvider('notgoogle.com.evil.test')).toBeNull();
    expect(detectProvider(null)).toBeNull();
  });
});
