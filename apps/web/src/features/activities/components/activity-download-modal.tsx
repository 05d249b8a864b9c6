import { useEffect, useState } from 'react';
import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ZActivitiesDownloadData, ZDownload, type TActivitiesDownloadRequest, type TDownloadFileType } from '@verilead/contracts';
import { PrepareDownloadModal } from '../../../components/prepare-download-modal';
import { usePreparedDownload } from '../../../components/use-prepared-download';
import { LoadingScreen } from '../../../components/loading-screen';
import { requestApi } from '../../../lib/api-client';
import { getErrorMessage } from '../../../lib/api-error';
import { formatNumber } from '../../../lib/format';

/**
 * Download of the activity log: first asks how many rows the file would hold (POST /download/activities) and
 * says so, then on Download prepares it (POST /download/activities/confirm) and opens its token link.
 */
export function ActivityDownloadModal({ opened, onClose, filters }: { opened: boolean; onClose: () => void; filters: Omit<TActivitiesDownloadRequest, 'file_type'> }) {
  const [fileType, setFileType] = useState<TDownloadFileType>('csv');
  const prepared = usePreparedDownload();
  const count = useQuery({
    queryKey: ['activities-download-count', filters],
    queryFn: ({ signal }) => requestApi({ method: 'POST', path: '/download/activities', body: filters, schema: ZActivitiesDownloadData, signal }),
    enabled: opened,
  });
  useEffect(() => {
    if (!opened) prepared.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);
  return (
    <>
      <PrepareDownloadModal
        prepared={prepared}
        opened={opened}
        onClose={onClose}
        title="Download activities"
        size="md"
        fileType={fileType}
        onFileTypeChange={setFileType}
        progressLabel="Preparing the activity file"
        readyTestId="activity-download-ready"
        downloadDisabled={!count.data || count.data.rows === 0}
        onDownload={() =>
          void prepared.run((signal) =>
            requestApi({ method: 'POST', path: '/download/activities/confirm', body: { ...filters, file_type: fileType }, schema: ZDownload, signal }),
          )
        }
      >
        {count.isPending ? <LoadingScreen minHeight={60} /> : null}
        {count.isError ? (
          <Alert color="red" variant="light">
            {getErrorMessage(count.error)}
          </Alert>
        ) : null}
        {count.data ? (
          <Text size="sm" data-testid="activity-download-count">
            {count.data.rows === 0 ? 'There are no activities to download for these filters.' : `${formatNumber(count.data.rows)} activities will be downloaded. ${count.data.message}`}
          </Text>
        ) : null}
      </PrepareDownloadModal>
      {prepared.blockedModal}
    </>
  );
}
