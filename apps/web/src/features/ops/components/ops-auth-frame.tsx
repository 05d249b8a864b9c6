import type { ReactNode } from 'react';
import { Badge, Center, Stack } from '@mantine/core';
import { AuthCard } from '../../../components/auth-card';
import { BrandLogo } from '../../../components/brand-logo';

/** The console's logged-out pages: a card on a plain page, labelled as the operator console. */
export function OpsAuthFrame({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Stack align="center" gap="md" w="100%" maw={440}>
        <BrandLogo />
        <Badge color="grape" variant="light">
          Operator console
        </Badge>
        <AuthCard title={title} subtitle={subtitle}>
          {children}
        </AuthCard>
      </Stack>
    </Center>
  );
}
