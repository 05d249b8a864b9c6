import { useSearchParams } from 'react-router';
import { DownloadView } from '../../../components/download-view';

/** `/download/user_activity?download_token=…`: the prepared activity file, open to anyone with the token. */
export function ActivityDownloadScreen() {
  const [params] = useSearchParams();
  const token = params.get('download_token') ?? params.get('token');
  return <DownloadView source={token ? { kind: 'token', token } : { kind: 'none' }} />;
}
