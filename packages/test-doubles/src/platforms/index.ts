import type { TIntegration } from '@verilead/contracts';
import { startActiveCampaignFake } from './active-campaign-fake';
import { startApolloFake } from './apollo-fake';
import { startClevertapFake } from './clevertap-fake';
import type { TFakePlatform, TFakeSeed } from './fake-server';
import { startGoHighLevelFake } from './go-high-level-fake';
import { startHubspotFake } from './hubspot-fake';
import { startKitFake } from './kit-fake';
import { startLemlistFake } from './lemlist-fake';
import { startMailchimpFake } from './mailchimp-fake';
import { startMailerliteFake } from './mailerlite-fake';
import { startMoosendFake } from './moosend-fake';
import { startSendgridFake } from './sendgrid-fake';
import { startZohoFake } from './zoho-fake';

/** A local fake of every platform that has an adapter (tests and demos). */
export const FAKES: Partial<Record<TIntegration, (seed: TFakeSeed) => Promise<TFakePlatform>>> = {
  mailchimp: startMailchimpFake,
  hubspot: startHubspotFake,
  active_campaign: startActiveCampaignFake,
  mailerlite: startMailerliteFake,
  moosend: startMoosendFake,
  kit: startKitFake,
  sendgrid: startSendgridFake,
  clevertap: (seed) => startClevertapFake(seed),
  lemlist: startLemlistFake,
  go_high_level: (seed) => startGoHighLevelFake(seed),
  apollo: (seed) => startApolloFake(seed),
  zoho: startZohoFake,
};
export * from './fake-server';
export { startActiveCampaignFake } from './active-campaign-fake';
export { startApolloFake } from './apollo-fake';
export { CLEVERTAP_FAKE_ACCOUNT_ID, CLEVERTAP_FAKE_REGION, startClevertapFake } from './clevertap-fake';
export { GHL_FAKE_LOCATION_ID, startGoHighLevelFake } from './go-high-level-fake';
export { startHubspotFake } from './hubspot-fake';
export { startKitFake } from './kit-fake';
export { startLemlistFake } from './lemlist-fake';
export { FAKE_MAILCHIMP_CLIENT, startMailchimpFake } from './mailchimp-fake';
export { startMailerliteFake } from './mailerlite-fake';
export { startMoosendFake } from './moosend-fake';
export { startSendgridFake } from './sendgrid-fake';
export { FAKE_ZOHO_CLIENT, startZohoFake, zohoModuleOf, type TZohoFake } from './zoho-fake';
export { createSendgridEventWebhook, mailchimpCleanedPost, sendgridBounceEvent } from './esp-event-webhooks';
