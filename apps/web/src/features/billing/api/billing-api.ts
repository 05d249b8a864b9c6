import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ZCreditTransactionsData, type ZCreditTransactionsQuery } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { userQueryKeys } from '../../../lib/user-queries';

/** GET /user/credits_and_limits/transactions: the credits ledger, paged and filtered. */
export function useCreditTransactions(query: z.output<typeof ZCreditTransactionsQuery>) {
  return useQuery({
    queryKey: [...userQueryKeys.transactions, query],
    queryFn: ({ signal }) =>
      requestApi({
        path: '/user/credits_and_limits/transactions',
        query: { page: query.page, limit: query.limit, from: query.from, to: query.to, kind: query.kind },
        schema: ZCreditTransactionsData,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
