export { registerCreditRoutes } from './routes';
export { assertCreditsAvailable, getCreditsAndLimits } from './service';
