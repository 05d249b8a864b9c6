import { useState } from 'react';
import { Alert, Button, Checkbox, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router';
import { EXTENSION_UNINSTALL_REASONS, EXTENSION_UNINSTALL_REASON_LABELS, ZExtensionUninstallRequest } from '@verilead/contracts';
import { getErrorMessage, isApiError } from '../../../lib/api-error';
import { useExtensionUninstall } from '../api/public-pages-api';

type TReason = (typeof EXTENSION_UNINSTALL_REASONS)[number];

/** /public/chrome-extension-uninstall: the page the browser opens after the extension is removed. */
export function ExtensionUninstallScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const send = useExtensionUninstall();
  const [reasons, setReasons] = useState<TReason[]>([]);
  const [otherReason, setOtherReason] = useState('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const body = { reasons, other_reason: otherReason || undefined, comment: comment || undefined, extension_version: params.get('v') ?? undefined };
    const parsed = ZExtensionUninstallRequest.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? 'reasons'), i.message])));
      return;
    }
    setErrors({});
    try {
      await send.mutateAsync(body);
      navigate('/thank_you?from=uninstall');
    } catch (error) {
      if (isApiError(error) && error.reasons.length > 0) setErrors(Object.fromEntries(error.reasons.map((r) => [r.field, r.messages.join(' ')])));
      else setFormError(getErrorMessage(error));
    }
  };

  return (
    <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 36 }} radius="lg" w="100%" maw={560}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          <Title order={1} fz={26}>
            Sorry to see you go
          </Title>
          <Text size="sm" c="dimmed">
            The Verilead extension was removed. Tell us why, so we can make it better.
          </Text>
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {formError}
            </Alert>
          ) : null}
          <Checkbox.Group label="Why did you uninstall it?" value={reasons} onChange={(v) => setReasons(v as TReason[])} error={errors.reasons}>
            <Stack gap={8} mt={8}>
              {EXTENSION_UNINSTALL_REASONS.map((r) => (
                <Checkbox key={r} value={r} label={EXTENSION_UNINSTALL_REASON_LABELS[r]} />
              ))}
            </Stack>
          </Checkbox.Group>
          {reasons.includes('others') ? <TextInput label="Your reason" value={otherReason} onChange={(e) => setOtherReason(e.currentTarget.value)} error={errors.other_reason} /> : null}
          <Textarea label="Anything else? (optional)" autosize minRows={2} value={comment} onChange={(e) => setComment(e.currentTarget.value)} error={errors.comment} />
          <Button type="submit" loading={send.isPending}>
            Send feedback
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
