import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBuilding, IconMailCheck, IconSearch, IconUsers } from '@tabler/icons-react';
import { StatCard } from '../../../components/stat-card';
import { ErrorState } from '../../../components/state-views';
import { formatCompactNumber, formatDateTime } from '../../../lib/format';
import { useMarketingStats } from '../api/public-pages-api';

/** /public/marketing_stats/: product-wide figures. */
export function MarketingStatsScreen() {
  const stats = useMarketingStats();
  return (
    <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 36 }} radius="lg" w="100%" maw={720}>
      <Stack gap="md">
        <Title order={1} fz={26}>
          Verilead in numbers
        </Title>
        {stats.isPending ? <Text>Loading...</Text> : null}
        {stats.isError ? <ErrorState error={stats.error} onRetry={() => void stats.refetch()} /> : null}
        {stats.data ? (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <StatCard label="E-mails verified" value={formatCompactNumber(stats.data.emails_verified)} icon={<IconMailCheck size={20} />} />
              <StatCard label="E-mails found" value={formatCompactNumber(stats.data.emails_found)} icon={<IconSearch size={20} />} color="teal" />
              <StatCard label="Organisations" value={formatCompactNumber(stats.data.organisations)} icon={<IconBuilding size={20} />} color="grape" />
              <StatCard label="Users" value={formatCompactNumber(stats.data.users)} icon={<IconUsers size={20} />} color="orange" />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              Updated {formatDateTime(stats.data.generated_at)}
            </Text>
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
