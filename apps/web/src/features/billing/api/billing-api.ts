import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ZCreditLedgerData, ZCreditTransactionsData, type ZCreditTransactionsQuery } from '@verilead/contracts';
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

/** GET /user/credits_and_limits/ledger: the ledger in lines (a job, a day of instant calls, a purchase), paged on lines. */
export function useCreditLedger(query: z.output<typeof ZCreditTransactionsQuery>) {
  return useQuery({
    queryKey: [...userQueryKeys.transactions, 'lines', query],
    queryFn: ({ signal }) =>
      requestApi({
        path: '/user/credits_and_limits/ledger',
        query: { page: query.page, limit: query.limit, from: query.from, to: query.to, kind: query.kind },
        schema: ZCreditLedgerData,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** GET /user/credits_and_limits/ledger/rows: the rows of one ledger line, fetched when it is expanded. */
export function useCreditLedgerRows(key: string | null, page: number) {
  return useQuery({
    queryKey: [...userQueryKeys.transactions, 'rows', key, page],
    queryFn: ({ signal }) => requestApi({ path: '/user/credits_and_limits/ledger/rows', query: { key: key!, page, limit: 25 }, schema: ZCreditTransactionsData, signal }),
    enabled: Boolean(key),
    placeholderData: keepPreviousData,
  });
}
