import type { TIntegration } from '@verilead/contracts';
import { createActiveCampaignAdapter } from './active-campaign';
import { createHubspotAdapter } from './hubspot';
import { createKitAdapter } from './kit';
import { createMailchimpAdapter } from './mailchimp';
import { createMailerliteAdapter } from './mailerlite';
import { createMoosendAdapter } from './moosend';
import { createSendgridAdapter } from './sendgrid';
import type { TAdapterContext, TIntegrationAdapter } from './types';

/** The platforms that have an adapter (the catalogue marks the others unavailable, with the reason). */
export const ADAPTERS: Partial<Record<TIntegration, (ctx: TAdapterContext) => TIntegrationAdapter>> = {
  mailchimp: createMailchimpAdapter,
  hubspot: createHubspotAdapter,
  active_campaign: createActiveCampaignAdapter,
  mailerlite: createMailerliteAdapter,
  moosend: createMoosendAdapter,
  kit: createKitAdapter,
  sendgrid: createSendgridAdapter,
};
