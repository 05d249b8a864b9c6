import { z } from 'zod';

export const ZMailTemplate = z.enum([
  'email_verification',
  'password_reset',
  'signup_existing_account',
  'setup_password',
  'email_change',
  'seat_request',
  'low_credit',
  'payment_action_required',
  'operator_invite',
]);
export type TMailTemplate = z.infer<typeof ZMailTemplate>;

export type TRenderedMail = { subject: string; text: string; html: string };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function layout(title: string, lines: string[], action: { label: string; url: string }): TRenderedMail {
  const text = [...lines, '', `${action.label}: ${action.url}`, '', 'If you did not ask for this, you can ignore this e-mail.', '— Verilead'].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#222">
<h2>${escapeHtml(title)}</h2>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(action.url)}" style="background:#2563eb;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:12px;color:#666">Or open this link: ${escapeHtml(action.url)}</p>
<p style="font-size:12px;color:#666">If you did not ask for this, you can ignore this e-mail.</p>
</body></html>`;
  return { subject: title, text, html };
}

/** Renders one of the account mails; `url` is the link with its token. */
export function renderMail(template: TMailTemplate, vars: { name: string; url: string; orgName?: string }): TRenderedMail {
  switch (template) {
    case 'email_verification':
      return layout('Verify your e-mail address', [`Hi ${vars.name},`, 'Welcome to Verilead! Please confirm your e-mail address.'], {
        label: 'Verify e-mail',
        url: vars.url,
      });
    case 'password_reset':
      return layout('Reset your password', [`Hi ${vars.name},`, 'We received a request to reset your password. The link works once and expires in 1 hour.'], {
        label: 'Reset password',
        url: vars.url,
      });
    case 'signup_existing_account':
      return layout(
        'Someone tried to sign up with your e-mail address',
        [
          `Hi ${vars.name},`,
          'Someone, maybe you, tried to create a new Verilead account with this address. It has an account already, so nothing was created and nothing changed.',
          `If it was you, log in at ${new URL(vars.url).origin}/login. If you forgot your password, reset it with the link below: it works once and expires in 1 hour.`,
        ],
        { label: 'Reset password', url: vars.url },
      );
    case 'operator_invite':
      return layout(
        'You are invited to the Verilead operator console',
        [`Hi ${vars.name},`, 'An operator of this Verilead installation invited you to its operator console. The link works once and expires in 48 hours.'],
        { label: 'Set your password', url: vars.url },
      );
    case 'setup_password':
      return layout(
        `You are invited to ${vars.orgName ?? 'Verilead'}`,
        [`Hi ${vars.name},`, `You have been added to ${vars.orgName ?? 'an organisation'} on Verilead. Set your password to get started.`],
        { label: 'Set up password', url: vars.url },
      );
    case 'email_change':
      return layout('Confirm your new e-mail address', [`Hi ${vars.name},`, 'Please confirm this address to make it the e-mail of your Verilead account.'], {
        label: 'Confirm e-mail',
        url: vars.url,
      });
    case 'seat_request':
      return layout(
        'We received your seat request',
        [
          `Hi ${vars.name},`,
          `We received your request for more member seats for ${vars.orgName ?? 'your organisation'}. Our team reviews it and answers you by e-mail; the new seats show on the members page once granted.`,
        ],
        { label: 'Open members', url: vars.url },
      );
    case 'low_credit':
      return layout(
        'Your credits are running low',
        [`Hi ${vars.name},`, `The credits balance of ${vars.orgName ?? 'your organisation'} has fallen below the alert threshold you set. Add credits to keep your verifications running.`],
        { label: 'Add credits', url: vars.url },
      );
    case 'payment_action_required':
      return layout(
        'Please confirm your subscription payment',
        [`Hi ${vars.name},`, `Your bank asks you to confirm the renewal payment of the Verilead subscription of ${vars.orgName ?? 'your organisation'}. The renewal credits are added once you confirm it.`],
        { label: 'Confirm payment', url: vars.url },
      );
  }
}
