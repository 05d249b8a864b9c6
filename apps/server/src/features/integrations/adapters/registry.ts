import type { TIntegration } from '@verilead/contracts';
import type { TAdapterContext, TIntegrationAdapter } from './types';

export type TAdapterFactory = (ctx: TAdapterContext) => TIntegrationAdapter;

/**
 * The platforms that have an adapter (the catalogue marks the others unavailable, with the reason). Each adapter is
 * loaded on its first use: several wrap a vendor SDK (HubSpot, MailerLite, SendGrid and their HTTP clients) that a
 * server whose users never connect that platform should not hold.
 */
export const ADAPTERS: Partial<Record<TIntegration, () => Promise<TAdapterFactory>>> = {
  mailchimp: () => import('./mailchimp').then((m) => m.createMailchimpAdapter),
  hubspot: () => import('./hubspot').then((m) => m.createHubspotAdapter),
  active_campaign: () => import('./active-campaign').then((m) => m.createActiveCampaignAdapter),
  mailerlite: () => import('./mailerlite').then((m) => m.createMailerliteAdapter),
  moosend: () => import('./moosend').then((m) => m.createMoosendAdapter),
  kit: () => import('./kit').then((m) => m.createKitAdapter),
  sendgrid: () => import('./sendgrid').then((m) => m.createSendgridAdapter),
  clevertap: () => import('./clevertap').then((m) => m.createClevertapAdapter),
  lemlist: () => import('./lemlist').then((m) => m.createLemlistAdapter),
  go_high_level: () => import('./go-high-level').then((m) => m.createGoHighLevelAdapter),
  apollo: () => import('./apollo').then((m) => m.createApolloAdapter),
  zoho: () => import('./zoho').then((m) => m.createZohoAdapter),
};
