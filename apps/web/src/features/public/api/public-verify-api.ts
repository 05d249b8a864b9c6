import { useMutation } from '@tanstack/react-query';
import { ZPublicVerifyData } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';

/** POST /public/verify: no account needed; rate-limited per IP (429 answers a clear message). */
export function usePublicVerify() {
  return useMutation({
    mutationFn: (email: string) => requestApi({ method: 'POST', path: '/public/verify', body: { email }, schema: ZPublicVerifyData, auth: false }),
  });
}
