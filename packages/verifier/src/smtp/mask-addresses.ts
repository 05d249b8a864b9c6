/**
 * E-mail addresses in a text (an SMTP reply line) as an operator may see them: the local part masked, the domain
 * kept (`550 5.1.1 <alice@corp.com>: …` reads `550 5.1.1 <…@corp.com>: …`). The address characters are those the
 * server's job-error mask uses (features/ops-infra maskJobError), which drops the domain as well.
 */
const ADDRESS = /[^\s@<>"'(),;:[\]]+@([^\s@<>"'(),;:[\]]+\.[a-z0-9-]+)/gi;

export function maskAddresses(text: string): string {
  return text.replace(ADDRESS, '…@$1');
}
