// @verilead/test-doubles: local stand-ins for the outside services the product talks to, for tests, demos and the
// server's test mode. The product never imports this package; the composition root wires it (see ./stand-ins.ts).
export { signStripePayload, startFakeStripe, TEST_CARDS, type TFakeStripe, type TFakeStripeEvent, type TFakeStripeOptions } from './stripe/server';
export { startFakePayPal, type TFakePayPal, type TFakePayPalEvent, type TFakePayPalOptions } from './paypal/server';
export * from './platforms';
export { startActiveCampaignFake } from './platforms/active-campaign-fake';
export { startApolloFake } from './platforms/apollo-fake';
export { CLEVERTAP_FAKE_ACCOUNT_ID, CLEVERTAP_FAKE_REGION, startClevertapFake } from './platforms/clevertap-fake';
export { GHL_FAKE_LOCATION_ID, startGoHighLevelFake } from './platforms/go-high-level-fake';
export { startHubspotFake } from './platforms/hubspot-fake';
export { startKitFake } from './platforms/kit-fake';
export { startLemlistFake } from './platforms/lemlist-fake';
export { FAKE_MAILCHIMP_CLIENT, startMailchimpFake } from './platforms/mailchimp-fake';
export { startMailerliteFake } from './platforms/mailerlite-fake';
export { startMoosendFake } from './platforms/moosend-fake';
export { startSendgridFake } from './platforms/sendgrid-fake';
export { FAKE_ZOHO_CLIENT, startZohoFake, zohoModuleOf, type TZohoFake } from './platforms/zoho-fake';
export * from './identity';
export { createTestDoubles, type TPlatformStandInOptions, type TStandIn } from './stand-ins';
