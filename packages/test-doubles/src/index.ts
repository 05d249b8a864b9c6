// @verilead/test-doubles: local stand-ins for the outside services the product talks to, for tests, demos and the
// server's test mode. The product never imports this package; the composition root wires it (see ./stand-ins.ts).
// Each group is also its own entry (`/payments`, `/platforms`, `/identity`), so a test loads only the fakes it uses.
export * from './payments';
export * from './platforms';
export * from './identity';
export { createTestDoubles, type TPlatformStandInOptions, type TStandIn } from './stand-ins';
