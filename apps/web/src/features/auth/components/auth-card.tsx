// The card moved to src/components (the SSO screens use it too).
export { AuthCard } from '../../../components/auth-card';
