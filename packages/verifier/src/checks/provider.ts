/** Mail providers recognised from MX host names (suffix match on the lower-cased host, trailing dot ignored). */
const PROVIDER_RULES: ReadonlyArray<{ provider: string; suffixes: string[] }> = [
  { provider: 'Google', suffixes: ['google.com', 'googlemail.com', 'aspmx.l.google.com', 'smtp.google.com'] },
  { provider: 'Microsoft', suffixes: ['protection.outlook.com', 'outlook.com', 'hotmail.com', 'olc.protection.outlook.com', 'outlook.office365.com'] },
  { provider: 'Yahoo', suffixes: ['yahoodns.net', 'yahoo.com', 'yahoo.net'] },
  { provider: 'Zoho', suffixes: ['zoho.com', 'zoho.eu', 'zoho.in', 'zohomail.com'] },
  { provider: 'Apple', suffixes: ['icloud.com', 'me.com', 'mac.com'] },
  { provider: 'Proton', suffixes: ['protonmail.ch', 'proton.me', 'protonmail.com'] },
  { provider: 'Yandex', suffixes: ['yandex.net', 'yandex.ru', 'yandex.com'] },
  { provider: 'Mail.ru', suffixes: ['mail.ru'] },
  { provider: 'GMX', suffixes: ['gmx.net', 'gmx.com', 'gmx.de'] },
  { provider: 'Web.de', suffixes: ['web.de'] },
  { provider: 'Fastmail', suffixes: ['messagingengine.com', 'fastmail.com'] },
  { provider: 'Proofpoint', suffixes: ['pphosted.com', 'ppe-hosted.com', 'proofpoint.com'] },
  { provider: 'Mimecast', suffixes: ['mimecast.com', 'mimecast.co.za'] },
  { provider: 'Barracuda', suffixes: ['barracudanetworks.com', 'ess.barracudanetworks.com', 'barracuda.com'] },
  { provider: 'Cisco Secure Email', suffixes: ['iphmx.com'] },
  { provider: 'AOL', suffixes: ['aol.com', 'aol.net'] },
  { provider: 'Amazon WorkMail / SES', suffixes: ['amazonaws.com', 'awsapps.com'] },
  { provider: 'Rackspace', suffixes: ['emailsrvr.com'] },
  { provider: 'GoDaddy', suffixes: ['secureserver.net'] },
  { provider: 'IONOS', suffixes: ['ionos.com', 'ionos.de', '1and1.com', 'kundenserver.de'] },
  { provider: 'OVH', suffixes: ['ovh.net'] },
  { provider: 'Namecheap', suffixes: ['privateemail.com', 'registrar-servers.com'] },
  { provider: 'Tutanota', suffixes: ['tutanota.de'] },
  { provider: 'QQ', suffixes: ['qq.com'] },
  { provider: 'NetEase', suffixes: ['163.com', 'netease.com'] },
  { provider: 'Mailinator', suffixes: ['mailinator.com'] },
];

/** Name of the mail provider behind an MX host name, or null when it is not a recognised provider. */
export function detectProvider(mxHost: string | null | undefined): string | null {
  if (!mxHost) return null;
  const host = mxHost.toLowerCase().replace(/\.$/, '');
  for (const rule of PROVIDER_RULES) {
    if (rule.suffixes.some((s) => host === s || host.endsWith(`.${s}`))) return rule.provider;
  }
  return null;
}
