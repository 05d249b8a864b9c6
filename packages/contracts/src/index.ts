// Public surface of @verilead/contracts: zod schemas, enums and constants shared by server and web.
// Each module appends its own `export * from './<module>';` line below.
export * from './constants';
