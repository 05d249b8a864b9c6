/**
 * The operator console's web face (issue 31 point 1; docs/ops-console.md): loaded lazily by the app's routes under /ops.
 * Its sections (nav entries and screens) are listed in sections.tsx.
 */
export const opsScreens = {
  console: () => import('./routes/ops-console'),
};
