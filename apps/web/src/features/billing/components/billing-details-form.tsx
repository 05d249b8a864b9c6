import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useBillingDetails, useSaveBillingDetails } from '../api/plans-api';

/** The buyer's billing details invoices print (name, address, tax id); an invoice keeps them as they were when paid. */
export function BillingDetailsForm() {
  const details = useBillingDetails();
  const save = useSaveBillingDetails();
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [taxId, setTaxId] = useState('');
  const loaded = details.data?.details;
  useEffect(() => {
    if (!loaded) return;
    setName(loaded.name);
    setAddress(loaded.address);
    setTaxId(loaded.tax_id);
  }, [loaded]);
  return (
    <Card>
      <Title order={4} mb={4}>
        Billing details
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Printed on your invoices. Invoices already paid keep the details they were issued with.
      </Text>
      {details.isError ? (
        <Alert color="red" role="alert" mb="sm">
          {getErrorMessage(details.error)}
        </Alert>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ name, address, tax_id: taxId }, { onSuccess: () => showToast({ title: 'Billing details saved', message: 'Your next invoices print them.', kind: 'success' }) });
        }}
      >
        <Stack gap="sm" maw={560}>
          <TextInput label="Name to bill" description="Your company or your own name" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
          <Textarea label="Address" value={address} onChange={(e) => setAddress(e.currentTarget.value)} rows={2} />
          <TextInput label="Tax id" description="VAT, GST or other tax number, if you have one" value={taxId} onChange={(e) => setTaxId(e.currentTarget.value)} />
          {save.isError ? (
            <Alert color="red" role="alert">
              {getErrorMessage(save.error)}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={save.isPending} disabled={details.isPending}>
              Save billing details
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
