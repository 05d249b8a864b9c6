import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import type { TBuyCreditsInfoData } from '@verilead/contracts';

/**
 * Says how this server takes payments: "Test mode" when the local fake providers (or sandboxes) are in use, "Payments
 * are not configured" when no provider can take a payment. Live payments need no notice.
 */
export function PaymentModeNotice({ info, children }: { info: TBuyCreditsInfoData | undefined; children?: ReactNode }) {
  if (!info) return null;
  if (!info.configured) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Payments are not configured" role="alert">
        This server has no Stripe or PayPal keys, so payments cannot be taken here. Please ask the operator to set them up.
      </Alert>
    );
  }
  if (!info.test_mode) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} title="Test mode">
      Payments go to a test provider (no live payment keys are configured) and no money moves.{children ? <> {children}</> : null}
    </Alert>
  );
}
