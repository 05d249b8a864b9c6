import type { APIRequestContext, Page } from '@playwright/test';
import { readStoredToken } from './session';

/** Calls the app's API with the logged-in page's token, as the web app does. */
export async function callApi<T>(page: Page, request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const token = await readStoredToken(page);
  const response = await request.fetch(`/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' },
    ...(data === undefined ? {} : { data }),
  });
  const body = (await response.json()) as { status: string; data: T; error?: { message: string } };
  if (body.status !== 'success') throw new Error(`${method} ${path}: ${response.status()} ${body.error?.message}`);
  return body.data;
}

export async function readOrgCredits(page: Page, request: APIRequestContext): Promise<number> {
  const data = await callApi<{ credits: number }>(page, request, 'GET', '/user/credits_and_limits');
  return data.credits;
}
