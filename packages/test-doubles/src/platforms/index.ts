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
