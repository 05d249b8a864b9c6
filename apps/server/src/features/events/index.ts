export { recordEvent } from './service';
