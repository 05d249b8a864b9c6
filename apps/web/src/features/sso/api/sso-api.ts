import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZLoginData,
  ZOnetoolVerify,
  ZSsoConfig,
  ZSsoDomainClaim,
  ZSsoSettings,
  ZSsoStart,
  type TSocialSsoProvider,
  type TSsoDomainClaim,
  type TSsoActivateRequest,
  type TSsoSettings,
  type TSsoSettingsRequest,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';

/** Which sign-in the browser went away for; the provider's answer comes back to /sso/signin. */
const PENDING_KEY = 'verilead.sso.pending';
export type TPendingSso = 'org' | TSocialSsoProvider;

export function rememberPendingSso(kind: TPendingSso): void {
  sessionStorage.setItem(PENDING_KEY, kind);
}
export function takePendingSso(): TPendingSso {
  const v = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  return v === 'google' || v === 'microsoft' ? v : 'org';
}

export function useSsoConfig(email?: string) {
  return useQuery({
    queryKey: ['sso', 'config', email ?? null],
    queryFn: ({ signal }) => requestApi({ path: '/sso/config', query: email ? { email } : {}, schema: ZSsoConfig, auth: false, signal }),
  });
}

export function fetchSsoConfig(email: string) {
  return requestApi({ path: '/sso/config', query: { email }, schema: ZSsoConfig, auth: false });
}

export function startOrgSso(email: string) {
  return requestApi({ method: 'POST', path: '/sso/signin', body: { email }, schema: ZSsoStart, auth: false });
}

export function startSocialSso(provider: TSocialSsoProvider) {
  return requestApi({ method: 'POST', path: `/sso/${provider}`, body: {}, schema: ZSsoStart, auth: false });
}

export function finishSso(kind: TPendingSso, body: TSsoActivateRequest) {
  const path = kind === 'org' ? '/sso/activate' : `/sso/${kind}/activate`;
  return requestApi({ method: 'POST', path, body, schema: ZLoginData, auth: false });
}

export function verifyOnetoolToken(token: string) {
  return requestApi({ method: 'POST', path: '/onetool/verify_token', body: { token }, schema: ZOnetoolVerify, auth: false });
}

export function loginWithOnetoolToken(token: string) {
  return requestApi({ method: 'POST', path: '/onetool/login', body: { token }, schema: ZLoginData, auth: false });
}

const settingsKey = ['sso', 'settings'] as const;

export function useSsoSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => requestApi({ path: '/user_preferences/sso', schema: ZSsoSettings, signal }) });
}

export function useSaveSsoSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TSsoSettingsRequest) => requestApi({ method: 'POST', path: '/user_preferences/sso', body, schema: ZSsoSettings }),
    onSuccess: (data) => client.setQueryData(settingsKey, data),
  });
}

/** Looks the domain's TXT record up now; the answer (verified, or pending with the reason) replaces its claim. */
export function useVerifySsoDomain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) => requestApi({ method: 'POST', path: '/user_preferences/sso/domains/verify', body: { domain }, schema: ZSsoDomainClaim }),
    onSuccess: (claim: TSsoDomainClaim) =>
      client.setQueryData(settingsKey, (old: TSsoSettings | undefined) =>
        old ? { ...old, domain_claims: old.domain_claims.map((c) => (c.domain === claim.domain ? claim : c)) } : old,
      ),
    // A refusal (another organisation verified it first) is stored with the claim: show the stored state.
    onError: () => void client.invalidateQueries({ queryKey: settingsKey }),
  });
}
