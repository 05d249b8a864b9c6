import { useSearchParams } from 'react-router';
import { DownloadView, type TDownloadSource } from '../../../components/download-view';

function readSource(params: URLSearchParams, tokenPath: string): TDownloadSource {
  const token = params.get('download_token') ?? params.get('token');
  if (token) return { kind: 'token', token, tokenPath };
  const queueId = params.get('queue_id') ?? params.get('download_id');
  return queueId ? { kind: 'queue', queueId } : { kind: 'none' };
}

/** Finder files (results and history) are served by GET public/download_email_finder_history?download_token. */
const FINDER_TOKEN_PATH = '/public/download_email_finder_history';

/** /download/email_finder_result?download_token=…: a finder list's result file. */
export function FinderResultDownloadScreen() {
  const [params] = useSearchParams();
  return <DownloadView source={readSource(params, FINDER_TOKEN_PATH)} />;
}

/** /download_email_finder_history?download_token=…: the finder history file. */
export function FinderHistoryDownloadScreen() {
  const [params] = useSearchParams();
  return <DownloadView source={readSource(params, FINDER_TOKEN_PATH)} />;
}
