import { Button, Card, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { FORM_GUARD_SCRIPT_PATH } from '@verilead/contracts';

/** The script tag to paste in the site's <head> (settings changed here apply without pasting it again). */
export function buildEmbedSnippet(origin: string, token: string): string {
  return `<script async src="${origin}${FORM_GUARD_SCRIPT_PATH}" data-token="${token}"></script>`;
}

export function EmbedSnippet({ token, tokenHint, onRotate }: { token: string | null; tokenHint: string; onRotate?: () => void }) {
  const snippet = buildEmbedSnippet(window.location.origin, token ?? 'YOUR_CLIENT_TOKEN');
  return (
    <Card>
      <Stack gap="sm">
        <Title order={4} fz={16}>
          Embed snippet
        </Title>
        <Text size="sm" c="dimmed">
          Paste this tag in the head of every page with a form. Changes to the settings below apply without pasting it again.
        </Text>
        <Code block aria-label="Embed snippet" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {snippet}
        </Code>
        {token ? (
          <Text size="sm" c="orange">
            The token is shown only now: copy the snippet before leaving this page.
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            The token ({tokenHint}) is shown only once. Rotate it to get a complete snippet again (the old one stops working).
          </Text>
        )}
        <Group>
          <CopyButton value={snippet}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy} disabled={!token}>
                {copied ? 'Copied' : 'Copy snippet'}
              </Button>
            )}
          </CopyButton>
          {!token && onRotate ? (
            <Button variant="default" onClick={onRotate}>
              Rotate token
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}
