import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { INTEGRATION_CATALOG, ZIntegration, type TIntegration, type TIntegrationInfo } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { EmptyState } from '../../../components/state-views';

/** A screen of the `:integration` in the path: its header, or "Unknown integration" for a name that is none. */
export function IntegrationPage({ title, children }: { title: (info: TIntegrationInfo) => string; children: (platform: TIntegration, info: TIntegrationInfo) => ReactNode }) {
  const parsed = ZIntegration.safeParse(useParams().integration);
  if (!parsed.success) return <EmptyState title="Unknown integration" description="This integration does not exist." />;
  const info = INTEGRATION_CATALOG[parsed.data];
  return (
    <>
      <PageHeader title={title(info)} description={info.description} />
      {children(parsed.data, info)}
    </>
  );
}
