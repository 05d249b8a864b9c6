import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import type { z } from 'zod';
import { SEAT_REQUEST_MAX, SEAT_REQUEST_MIN, ZSeatRequest, type TSeatRequestData, type TSeats } from '@verilead/contracts';
import { applyServerErrors } from '../../../lib/form-errors';
import { showToast } from '../../../lib/toast';
import { useSeatRequest } from '../api/team-api';
import { FormActions, FormError } from './form-parts';

type TSeatValues = z.input<typeof ZSeatRequest>;

function SeatRequestForm({ seats, onDone }: { seats: TSeats | null; onDone: () => void }) {
  const request = useSeatRequest();
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<TSeatRequestData | null>(null);
  const form = useForm<TSeatValues, unknown, z.output<typeof ZSeatRequest>>({
    resolver: zodResolver(ZSeatRequest),
    defaultValues: { seat_count: undefined as unknown as number, reason: '' },
  });
  const submit = form.handleSubmit(async (body) => {
    setFormError(null);
    try {
      const data = await request.mutateAsync(body);
      showToast({ title: 'Seat request sent', message: data.message, kind: 'success' });
      setSent(data);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['seat_count', 'reason']));
    }
  });

  if (sent) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconMailForward size={18} />} title="Request received" role="status">
          {sent.message} You asked for {sent.seat_count} more seat{sent.seat_count === 1 ? '' : 's'}.
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onDone}>Done</Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {seats ? (
          <Text size="sm" c="dimmed">
            Your plan has {seats.limit} member seats; {seats.used} in use. Tell us how many more you need and why: we answer by e-mail.
          </Text>
        ) : null}
        <FormError message={formError} />
        <Controller
          control={form.control}
          name="seat_count"
          render={({ field, fieldState }) => (
            <NumberInput
              label="Seat count"
              description={`From ${SEAT_REQUEST_MIN} to ${SEAT_REQUEST_MAX}`}
              placeholder="How many more seats"
              allowDecimal={false}
              allowNegative={false}
              value={typeof field.value === 'number' ? field.value : ''}
              onChange={(next) => field.onChange(typeof next === 'number' ? next : undefined)}
              error={fieldState.error?.message}
              data-autofocus
            />
          )}
        />
        <Textarea
          label="Reason"
          placeholder="e.g. our sales team grows by four people next month"
          rows={4}
          error={form.formState.errors.reason?.message}
          {...form.register('reason')}
        />
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} label="Send request" />
      </Stack>
    </form>
  );
}

/** "Request more seats": seat count 1–50 and a reason, answered by mail. */
export function SeatRequestModal({ opened, seats, onClose }: { opened: boolean; seats: TSeats | null; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Request more seats">
      {opened ? <SeatRequestForm seats={seats} onDone={onClose} /> : null}
    </Modal>
  );
}
