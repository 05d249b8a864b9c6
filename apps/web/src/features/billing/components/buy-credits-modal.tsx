import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Modal, NumberInput, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconBrandPaypal, IconCreditCard } from '@tabler/icons-react';
import { MAX_PURCHASE_CREDITS, MIN_PURCHASE_CREDITS, type TCurrency } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { formatNumber } from '../../../lib/format';
import { useBuyCreditsInfo, usePriceQuote, useStartPayPalOrder, useStartPayment } from '../api/payments-api';
import { formatAmount } from './money';
import { PaymentModeNotice } from './payment-mode-notice';

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return debounced;
}

/** The buy-credits modal: credits and currency, the live quote (tax included), then the provider's checkout page. */
export function BuyCreditsModal({ opened, onClose, initialCredits = 5000 }: { opened: boolean; onClose: () => void; initialCredits?: number }) {
  const info = useBuyCreditsInfo(opened);
  const [currency, setCurrency] = useState<TCurrency>('USD');
  const [credits, setCredits] = useState<number | string>(initialCredits);
  const [coupon, setCoupon] = useState('');
  const valid = typeof credits === 'number' && Number.isInteger(credits) && credits >= MIN_PURCHASE_CREDITS && credits <= MAX_PURCHASE_CREDITS;
  const debouncedCredits = useDebounced(valid ? credits : null, 250);
  const debouncedCoupon = useDebounced(coupon.trim(), 400);
  const quote = usePriceQuote(debouncedCredits, currency, debouncedCoupon || undefined);
  const start = useStartPayment();
  const paypal = useStartPayPalOrder();
  const creditsError = valid ? null : `Enter between ${formatNumber(MIN_PURCHASE_CREDITS)} and ${formatNumber(MAX_PURCHASE_CREDITS)} credits`;
  const couponError = quote.isError && debouncedCoupon ? getErrorMessage(quote.error) : null;
  // An unknown coupon keeps the price without it on screen (its error sits on the coupon field).
  const plainQuote = usePriceQuote(couponError ? debouncedCredits : null, currency);
  const shown = quote.data ?? (couponError ? plainQuote.data : undefined);

  const pay = () => {
    if (!valid) return;
    start.mutate(
      { credits, currency, coupon_code: coupon.trim() || undefined },
      { onSuccess: (data) => window.location.assign(data.checkout_url) },
    );
  };
  const payWithPayPal = () => {
    if (!valid) return;
    paypal.mutate({ credits, currency, coupon_code: coupon.trim() || undefined }, { onSuccess: (data) => window.location.assign(data.approve_url) });
  };
  const failure = start.error ?? paypal.error;
  const canPay = (provider: 'stripe' | 'paypal') => Boolean(info.data?.providers.includes(provider));

  return (
    <Modal opened={opened} onClose={onClose} title="Buy credits" centered size="md">
      <Stack gap="md">
        {info.isPending ? <Text size="sm">Loading...</Text> : null}
        {info.isError ? <Alert color="red">{getErrorMessage(info.error)}</Alert> : null}
        <PaymentModeNotice info={info.data}>Use the test cards on the next page.</PaymentModeNotice>
        <SegmentedControl
          aria-label="Currency"
          value={currency}
          onChange={(v) => setCurrency(v as TCurrency)}
          data={[
            { value: 'USD', label: 'USD ($)' },
            { value: 'INR', label: 'INR (₹)' },
          ]}
        />
        <NumberInput
          label="Credits"
          value={credits}
          onChange={setCredits}
          min={MIN_PURCHASE_CREDITS}
          max={MAX_PURCHASE_CREDITS}
          step={1000}
          thousandSeparator=","
          allowDecimal={false}
          error={creditsError}
        />
        <TextInput label="Coupon code (optional)" value={coupon} onChange={(e) => setCoupon(e.currentTarget.value)} error={couponError} />
        {shown && valid ? (
          <Table withRowBorders={false} verticalSpacing={4} aria-label="Price">
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>
                  {formatNumber(shown.credits)} credits{' '}
                  <Badge variant="light" size="sm">
                    {shown.kind}
                  </Badge>
                  {shown.bonus_credits ? <Text span size="sm" c="teal">{` +${formatNumber(shown.bonus_credits)} bonus`}</Text> : null}
                </Table.Td>
                <Table.Td ta="right">{formatAmount(shown.currency, shown.subtotal)}</Table.Td>
              </Table.Tr>
              {shown.discount ? (
                <Table.Tr>
                  <Table.Td>Coupon {shown.coupon_code}</Table.Td>
                  <Table.Td ta="right">−{formatAmount(shown.currency, shown.discount)}</Table.Td>
                </Table.Tr>
              ) : null}
              <Table.Tr>
                <Table.Td>Tax ({shown.tax_percent}%)</Table.Td>
                <Table.Td ta="right">{formatAmount(shown.currency, shown.tax)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td fw={700}>Total</Table.Td>
                <Table.Td ta="right" fw={700} data-testid="quote-total">
                  {formatAmount(shown.currency, shown.total)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        ) : null}
        {quote.isFetching ? <Loader size="xs" aria-label="Loading..." /> : null}
        {failure ? (
          <Alert color="red" role="alert">
            {getErrorMessage(failure)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          {currency === 'USD' && canPay('paypal') ? (
            <Button variant="light" color="yellow" leftSection={<IconBrandPaypal size={16} />} onClick={payWithPayPal} loading={paypal.isPending} disabled={!valid || !shown || Boolean(couponError)}>
              PayPal
            </Button>
          ) : null}
          <Button leftSection={<IconCreditCard size={16} />} onClick={pay} loading={start.isPending} disabled={!valid || !shown || Boolean(couponError) || !canPay('stripe')}>
            {shown && valid ? `Pay ${formatAmount(shown.currency, shown.total)}` : 'Pay'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
