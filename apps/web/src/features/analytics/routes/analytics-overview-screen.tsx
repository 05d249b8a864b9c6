import { Grid } from '@mantine/core';
import { IconArrowBackUp, IconCoins, IconReceipt, IconSum } from '@tabler/icons-react';
import { BillableSplitCard } from '../../../components/billable-split-card';
import { UsageTrendChart } from '../../../components/usage-trend-chart';
import { formatNumber } from '../../../lib/format';
import { useOverviewUsage, useUsageGraph } from '../api/analytics-api';
import { useAnalyticsFilters } from '../components/analytics-filters';
import { AnalyticsPage } from '../components/analytics-page';
import { MetricGrid } from '../components/metric-grid';

/** `/analytics`: where the credits went, all features together. */
export function AnalyticsOverviewScreen() {
  const filters = useAnalyticsFilters();
  const overview = useOverviewUsage(filters.request);
  const graph = useUsageGraph(filters.request);
  return (
    <AnalyticsPage title="Analytics" description="Understand how credits were spent." filters={filters} queries={[overview, graph]}>
      {() => {
        const o = overview.data!;
        return (
          <>
            <MetricGrid
              metrics={[
                { label: 'Credits used', value: formatNumber(o.credits.net), icon: <IconCoins size={22} />, hint: 'Charged less refunded' },
                { label: 'Charged', value: formatNumber(o.credits.charged), icon: <IconReceipt size={22} />, color: 'orange' },
                { label: 'Refunded', value: formatNumber(o.credits.refunded), icon: <IconArrowBackUp size={22} />, color: 'teal' },
                { label: 'Charges', value: formatNumber(o.credits.charges), icon: <IconSum size={22} />, color: 'grape', hint: 'Ledger entries' },
              ]}
            />
            <Grid gap="lg">
              <Grid.Col span={{ base: 12, lg: 8 }}>
                <UsageTrendChart points={graph.data!.points} fileName="credits-over-time.csv" />
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 4 }}>
                <BillableSplitCard split={o.split} />
              </Grid.Col>
            </Grid>
          </>
        );
      }}
    </AnalyticsPage>
  );
}
