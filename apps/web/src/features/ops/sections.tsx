import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { IconBuildingStore, IconCoins, IconCreditCard, IconHistory, IconServer, IconStack2, IconUserShield } from '@tabler/icons-react';

/**
 * The console's sections: each is a nav entry and a route under /ops (docs/ops-console.md). `path` is relative to /ops;
 * `screen` a lazily loaded component. Add a section: append an entry here (the nav and the route follow).
 */
export type TOpsSection = {
  path: string;
  label: string;
  icon: ComponentType<{ size?: number }>;
  screen: LazyExoticComponent<ComponentType>;
  /** Routes of the section that are not in the nav (e.g. a detail page), relative to /ops. */
  extraRoutes?: { path: string; screen: LazyExoticComponent<ComponentType> }[];
};

export const OPS_SECTIONS: readonly TOpsSection[] = [
  {
    path: 'orgs',
    label: 'Organisations',
    icon: IconBuildingStore,
    screen: lazy(async () => ({ default: (await import('./routes/orgs-screen')).OrgsScreen })),
    extraRoutes: [{ path: 'orgs/:orgId', screen: lazy(async () => ({ default: (await import('./routes/org-detail-screen')).OrgDetailScreen })) }],
  },
  { path: 'pricing', label: 'Plans and coupons', icon: IconCoins, screen: lazy(async () => ({ default: (await import('./routes/pricing-screen')).PricingScreen })) },
  { path: 'operators', label: 'Operators', icon: IconUserShield, screen: lazy(async () => ({ default: (await import('./routes/operators-screen')).OperatorsScreen })) },
  { path: 'log', label: 'Operator log', icon: IconHistory, screen: lazy(async () => ({ default: (await import('./routes/operator-log-screen')).OperatorLogScreen })) },
  { path: 'queues', label: 'Job queues', icon: IconStack2, screen: lazy(async () => ({ default: (await import('./routes/queues-screen')).QueuesScreen })) },
  { path: 'mail-hosts', label: 'Mail hosts', icon: IconServer, screen: lazy(async () => ({ default: (await import('./routes/mail-hosts-screen')).MailHostsScreen })) },
  { path: 'payments', label: 'Payments', icon: IconCreditCard, screen: lazy(async () => ({ default: (await import('./routes/payments-screen')).PaymentsScreen })) },
];
