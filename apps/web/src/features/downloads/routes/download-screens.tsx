import { useParams, useSearchParams } from 'react-router';
import { DownloadView, type TDownloadSource } from '../../../components/download-view';

function pickToken(params: URLSearchParams): string | null {
  return params.get('download_token') ?? params.get('token');
}

/** /download_result/:download_id — a prepared result file: by its token when given, else polled for the logged-in owner. */
export function DownloadResultScreen() {
  const { download_id: downloadId = '' } = useParams();
  const [params] = useSearchParams();
  const token = pickToken(params);
  const source: TDownloadSource = token ? { kind: 'token', token } : downloadId ? { kind: 'queue', queueId: downloadId } : { kind: 'none' };
  return <DownloadView source={source} />;
}

/** /download/result?download_token=… (or ?queue_id=… when logged in). */
export function DownloadTokenScreen() {
  const [params] = useSearchParams();
  const token = pickToken(params);
  const queueId = params.get('queue_id') ?? params.get('download_id');
  const source: TDownloadSource = token ? { kind: 'token', token } : queueId ? { kind: 'queue', queueId } : { kind: 'none' };
  return <DownloadView source={source} />;
}

/** /input_download/:request_id — the file as it was uploaded for a list. */
export function InputDownloadScreen() {
  const { request_id: requestId = '' } = useParams();
  const [params] = useSearchParams();
  const token = pickToken(params);
  const source: TDownloadSource = token ? { kind: 'token', token } : requestId ? { kind: 'input', listId: requestId } : { kind: 'none' };
  return <DownloadView source={source} />;
}
