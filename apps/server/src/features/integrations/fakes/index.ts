import type { TIntegration } from '@verilead/contracts';
import { startActiveCampaignFake } from './active-campaign-fake';
import type { TFakePlatform, TFakeSeed } from './fake-server';
import { startHubspotFake } from './hubspot-fake';
import { startKitFake } from './kit-fake';
import { startMailchimpFake } from './mailchimp-fake';
import { startMailerliteFake } from './mailerlite-fake';
import { startMoosendFake } from './moosend-fake';
import { startSendgridFake } from './sendgrid-fake';

/** A local fake of every platform that has an adapter (tests and demos). */
export const FAKES: Partial<Record<TIntegration, (seed: TFakeSeed) => Promise<TFakePlatform>>> = {
  mailchimp: startMailchimpFake,
  hubspot: startHubspotFake,
  active_campaign: startActiveCampaignFake,
  mailerlite: startMailerliteFake,
  moosend: startMoosendFake,
  kit: startKitFake,
  sendgrid: startSendgridFake,
};
export * from './fake-server';
