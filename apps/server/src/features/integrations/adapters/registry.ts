import type { TIntegration } from '@verilead/contracts';
import { createActiveCampaignAdapter } from './active-campaign';
import { createApolloAdapter } from './apollo';
import { createClevertapAdapter } from './clevertap';
import { createGoHighLevelAdapter } from './go-high-level';
import { createHubspotAdapter } from './hubspot';
import { createKitAdapter } from './kit';
import { createLemlistAdapter } from './lemlist';
import { createMailchimpAdapter } from './mailchimp';
import { createMailerliteAdapter } from './mailerlite';
import { createMoosendAdapter } from './moosend';
import { createSendgridAdapter } from './sendgrid';
import type { TAdapterContext, TIntegrationAdapter } from './types';
import { createZohoAdapter } from './zoho';

/** The platforms that have an adapter (the catalogue marks the others unavailable, with the reason). */
export const ADAPTERS: Partial<Record<TIntegration, (ctx: TAdapterContext) => TIntegrationAdapter>> = {
  mailchimp: createMailchimpAdapter,
  hubspot: createHubspotAdapter,
  active_campaign: createActiveCampaignAdapter,
  mailerlite: createMailerliteAdapter,
  moosend: createMoosendAdapter,
  kit: createKitAdapter,
  sendgrid: createSendgridAdapter,
  clevertap: createClevertapAdapter,
  lemlist: createLemlistAdapter,
  go_high_level: createGoHighLevelAdapter,
  apollo: createApolloAdapter,
  zoho: createZohoAdapter,
};
