import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Anchor, Badge, Card, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCoins, IconHourglass, IconMailOff, IconMailPause, IconShieldCheck, IconTargetArrow } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { TBounceMapping, TBounceReport, TBounceReportPreview } from '@verilead/contracts';
import { FileDropZone } from '../../../components/file-drop-zone';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { PagedTable, usePaging } from '../../../components/paged-table-footer';
import { StatCard } from '../../../components/stat-card';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { getErrorMessage } from '../../../lib/api-error';
import { checkBulkFile } from '../../../lib/bulk-file-rules';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { uploadBounceReport, useApplyBounceReport, useBounceReports } from '../api/bounces-api';
import { MappingPreview } from '../components/mapping-preview';
import { WebhooksCard } from '../components/webhooks-card';

const HISTORY_COLUMNS = ['Report', 'Uploaded', 'Hard', 'Soft', 'Matched', 'Credits returned', 'Claims'];

function GuaranteeNote({ days }: { days: number | undefined }) {
  if (days === undefined) return null;
  return (
    <Alert icon={<IconShieldCheck size={18} />} color={days > 0 ? 'teal' : 'gray'} variant="light" title={days > 0 ? `${days}-day bounce guarantee` : 'No bounce guarantee'} mb="lg">
      {days > 0
        ? `An address we verified valid for you that hard-bounces within ${days} days of the verdict gets its credit back, once per verdict, in your credits ledger, once we have checked the address again and its mail server now refuses it (a server that still accepts it declines the claim). `
        : 'Bounces still mark your results invalid and teach the catch-all score; no credit is given back. '}
      Soft bounces are recorded and never credited; unknown, catch-all and invalid verdicts are not credited.
    </Alert>
  );
}

function Summary({ report }: { report: TBounceReport }) {
  return (
    <Card data-testid="bounce-summary">
      <Title order={4} fz={16} mb="sm">
        {report.file_name} applied
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }}>
        <StatCard label="Hard bounces" value={formatNumber(report.hard)} icon={<IconMailOff size={22} />} color="red" />
        <StatCard label="Soft bounces" value={formatNumber(report.soft)} hint="Recorded, never credited" icon={<IconMailPause size={22} />} color="yellow" />
        <StatCard label="Matched verdicts" value={formatNumber(report.matched)} hint="Hard bounces you had verified" icon={<IconTargetArrow size={22} />} />
        <StatCard label="Credits returned" value={formatNumber(report.credits_returned)} hint={`${formatNumber(report.credited)} valid verdicts`} icon={<IconCoins size={22} />} color="teal" />
        <StatCard
          label="Claims checked"
          value={report.credit_backs_pending > 0 ? `${formatNumber(report.credit_backs_pending)} waiting` : formatNumber(report.credited + report.credit_backs_declined)}
          hint={report.credit_backs_declined > 0 ? `${formatNumber(report.credit_backs_declined)} declined: the address is still accepted` : 'Re-checked before credits come back'}
          icon={<IconHourglass size={22} />}
          color={report.credit_backs_pending > 0 ? 'blue' : 'gray'}
        />
        <StatCard label="Rows ignored" value={formatNumber(report.ignored)} hint="No address or bounce type" icon={<IconAlertTriangle size={22} />} color="gray" />
      </SimpleGrid>
      {report.credit_backs_pending > 0 ? (
        <Progress value={100} animated striped mt="sm" aria-label="Credit-back claims being re-checked" />
      ) : null}
      <Text size="sm" mt="sm">
        Credits returned appear in your <Anchor component={Link} to="/account/credits">credits ledger</Anchor> as “Bounce credit back”.
      </Text>
    </Card>
  );
}

/** A report's claims: being re-checked, credited, declined. */
function ClaimsCell({ report }: { report: TBounceReport }) {
  const parts: string[] = [];
  if (report.credited > 0) parts.push(`${formatNumber(report.credited)} credited`);
  if (report.credit_backs_declined > 0) parts.push(`${formatNumber(report.credit_backs_declined)} declined`);
  return (
    <Stack gap={2}>
      {report.credit_backs_pending > 0 ? (
        <Badge size="sm" color="blue" variant="light">
          {formatNumber(report.credit_backs_pending)} being checked
        </Badge>
      ) : null}
      <Text size="sm">{parts.length ? parts.join(' · ') : report.credit_backs_pending > 0 ? '' : '—'}</Text>
    </Stack>
  );
}

/** The balance and the ledger move when a re-check gives credits back: read them again then. */
function useRefreshCreditsWhenReturned(items: readonly TBounceReport[] | undefined) {
  const client = useQueryClient();
  const returned = items?.reduce((n, r) => n + r.credits_returned, 0);
  const seen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (returned === undefined) return;
    if (seen.current !== undefined && returned !== seen.current) void client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'bounces' });
    seen.current = returned;
  }, [returned, client]);
}

/** Bounces: upload a campaign's bounce report (any ESP), check the detected columns, apply; the history; ESP webhooks. */
export function BouncesScreen() {
  const { page, limit, setPage, changeLimit } = usePaging();
  const reports = useBounceReports(page, limit);
  const apply = useApplyBounceReport();
  const [preview, setPreview] = useState<TBounceReportPreview | null>(null);
  const [mapping, setMapping] = useState<TBounceMapping | null>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [applied, setApplied] = useState<TBounceReport | null>(null);
  // The applied report as the history reads it now (its claims settle after the answer to the apply).
  const current = applied ? (reports.data?.items.find((r) => r.id === applied.id) ?? applied) : null;
  useRefreshCreditsWhenReturned(reports.data?.items);

  const onFile = async (file: File) => {
    const problem = checkBulkFile(file);
    setApplied(null);
    setError(problem);
    if (problem) return;
    setUploading(0);
    try {
      const p = await uploadBounceReport(file, setUploading);
      setPreview(p);
      setMapping(p.mapping);
    } catch (e) {
      setError(getErrorMessage(e));
    } finally {
      setUploading(null);
    }
  };
  const onApply = () => {
    if (!preview || !mapping) return;
    apply.mutate(
      { report_id: preview.report_id, mapping },
      {
        onSuccess: (report) => {
          setApplied(report);
          setPreview(null);
        },
        onError: (e) => setError(getErrorMessage(e)),
      },
    );
  };

  return (
    <>
      <PageHeader title="Bounces" description="Feed your campaigns' bounces back: hard bounces mark those addresses invalid in your results and teach the catch-all score." />
      <GuaranteeNote days={reports.data?.guarantee_days} />
      <Stack gap="lg">
        {error ? (
          <Alert color="red" variant="light" title="The report was not applied" role="alert" withCloseButton onClose={() => setError(null)}>
            {error}
          </Alert>
        ) : null}
        {current ? <Summary report={current} /> : null}
        {preview && mapping ? (
          <MappingPreview preview={preview} mapping={mapping} onChange={setMapping} onApply={onApply} onCancel={() => setPreview(null)} applying={apply.isPending} />
        ) : (
          <Stack gap={6}>
            <FileDropZone kinds={['csv', 'xlsx', 'txt']} onFile={(f) => void onFile(f)} loading={uploading !== null} inputLabel="Choose a bounce report" hint="A bounce export from SendGrid, Mailchimp, Brevo, Mailgun, Postmark, Amazon SES, HubSpot or any ESP: CSV, XLSX or TXT." />
            {uploading !== null ? <Progress value={uploading} aria-label="Upload progress" /> : null}
          </Stack>
        )}
        <Card>
          <Title order={4} fz={16} mb="md">
            History
          </Title>
          {reports.isPending ? <LoadingScreen minHeight={120} /> : null}
          {reports.isError ? <ErrorState error={reports.error} onRetry={() => void reports.refetch()} /> : null}
          {reports.data && reports.data.total === 0 ? <EmptyState title="No bounce reports yet" description="Upload a campaign's bounce report to see it here." /> : null}
          {reports.data && reports.data.total > 0 ? (
            <PagedTable
              label="Bounce reports"
              minWidth={760}
              head={HISTORY_COLUMNS.map((c) => (
                <Table.Th key={c}>{c}</Table.Th>
              ))}
              page={page}
              limit={limit}
              total={reports.data.total}
              onPageChange={setPage}
              onLimitChange={changeLimit}
            >
              {reports.data.items.map((r) => (
                <Table.Tr key={r.id} data-testid="bounce-report">
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {r.file_name}
                    </Text>
                    {r.state === 'preview' ? (
                      <Badge size="xs" color="gray" variant="light">
                        Not applied
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(r.created_at)}</Text>
                  </Table.Td>
                  <Table.Td>{formatNumber(r.hard)}</Table.Td>
                  <Table.Td>{formatNumber(r.soft)}</Table.Td>
                  <Table.Td>{formatNumber(r.matched)}</Table.Td>
                  <Table.Td>{formatNumber(r.credits_returned)}</Table.Td>
                  <Table.Td>
                    <ClaimsCell report={r} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </PagedTable>
          ) : null}
        </Card>
        <WebhooksCard />
      </Stack>
    </>
  );
}
